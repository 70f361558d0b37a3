import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { openDatabase, type Database } from '../../../src/db/client.ts';
import { freshServerDatabase } from '../../kit/gateway.ts';
import { tcpProxy, type TcpProxy } from '../../kit/tcp-proxy.ts';

// The database goes away and comes back (PostgreSQL only: a TCP proxy in front of the server is cut and
// reopened). Meanwhile every answer is 503 `unavailable` with nothing internal in it; afterwards the
// gateway serves again by itself.

const serverUrl = process.env.DATABASE_URL;

describe.skipIf(!serverUrl)('database outage', () => {
  let fresh: { url: string; drop: () => Promise<void> };
  let proxy: TcpProxy;
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    fresh = await freshServerDatabase(serverUrl!, 'lgw_test_outage');
    proxy = tcpProxy(new URL(fresh.url));
    await proxy.start();
    const config = loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: '0', DATABASE_URL: proxy.urlThrough(fresh.url) });
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    app = await buildApp({ config, database });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close().catch(() => {});
    await proxy?.stop();
    await fresh?.drop();
  });

  const rest = () => app.inject({ method: 'GET', url: '/api/v1/activities/uids_and_flags' });
  const graphql = (token?: string) =>
    app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: JSON.stringify({ query: '{ activities(first: 1) { totalCount } }' }),
    });
  const internals = /ECONN|127\.0\.0\.1|5432|prisma|postgres|pg_|stack|at /i;

  it('answers 503 unavailable while the database is down, and recovers by itself', async () => {
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await rest()).statusCode).toBe(200);
    expect((await graphql()).statusCode).toBe(200);

    await proxy.stop();

    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable' });

    for (let i = 0; i < 2; i += 1) {
      const down = await rest();
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({
        meta: { status: 'unavailable', message: 'The service is unavailable, try again shortly', errors: null },
      });
    }
    const anonymous = await graphql();
    expect(anonymous.statusCode).toBe(503);
    expect(anonymous.json().errors[0].extensions.code).toBe('UNAVAILABLE');
    expect(anonymous.body).not.toMatch(internals);
    // With a token, the failure comes while finding who is calling (before any resolver).
    const signedIn = await graphql('lgw_some-token-value-0123456789');
    expect(signedIn.statusCode).toBe(503);
    expect(signedIn.json().errors[0].extensions.code).toBe('UNAVAILABLE');
    expect(signedIn.body).not.toMatch(internals);
    const signedInRest = await app.inject({
      method: 'GET',
      url: '/api/v1/classroom_activities/1/student_names',
      headers: { authorization: 'Bearer lgw_x0123456789' },
    });
    expect(signedInRest.statusCode).toBe(503);
    expect(signedInRest.json().meta.status).toBe('unavailable');

    await proxy.start();

    let readyAgain = 0;
    for (let i = 0; i < 50 && readyAgain !== 200; i += 1) {
      readyAgain = (await app.inject({ method: 'GET', url: '/readyz' })).statusCode;
      if (readyAgain !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(readyAgain).toBe(200);
    expect((await rest()).statusCode).toBe(200);
    expect((await graphql()).statusCode).toBe(200);
  }, 60_000);
});
