import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../kit/commands.ts';
import { ids, tokens } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { errorCodes, expectCached, sha256, viewerWith } from '../../kit/graphql.ts';
import { cutListeners, startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';

// The token cache (src/auth/token-cache.ts) across instances on one PostgreSQL server: a revocation by a
// command's process is heard by every instance, and while an instance's listener is down it keeps no
// token. On one instance: tests/integration/users/token-cache.test.ts.

const onServer = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onServer)('on a PostgreSQL server, across instances', () => {
  const gateways: Gateway[] = [];
  afterAll(async () => {
    for (const gateway of gateways.reverse()) await gateway.close();
  });

  it('a token cached by instance B and revoked with token:revoke is refused by B at once', async () => {
    const a = await startGateway();
    gateways.push(a);
    const b = await startGateway({ ...a.databaseEnv, TOKEN_CACHE_TTL: '1 minute' });
    gateways.push(b);
    await a.reset();
    // B hears a's reset (it empties every cache) on its own listener: once it has, it caches again.
    await b.heardAllSoFar();

    await expectCached(b, tokens.owner);
    await expectCached(a, tokens.owner);
    const revoked = await runCommand('token-revoke', [tokens.owner], a.databaseEnv);
    expect(revoked.code).toBe(0);

    expect(errorCodes((await viewerWith(b, tokens.owner)).answer)).toEqual(['UNAUTHENTICATED']);
    expect(errorCodes((await viewerWith(a, tokens.owner)).answer)).toEqual(['UNAUTHENTICATED']);
    expect((await viewerWith(b, tokens.coteacher)).answer.data!.viewer!.id).toBe(String(ids.coteacher));
  });

  it('a revocation made while the listening connection is down is not missed: the cache is emptied', async () => {
    const gateway: ListeningGateway = await startListeningGateway({ TOKEN_CACHE_TTL: '1 minute' });
    gateways.push(gateway);
    await gateway.reset();
    await expectCached(gateway, tokens.owner);

    const admin = new pg.Client({ connectionString: gateway.databaseUrl });
    await admin.connect();
    try {
      // The listener is killed and the token revoked before it can be back (its first retry waits 100 ms):
      // the revocation's notification is lost.
      expect(await cutListeners(admin)).toBe(1);
      await admin.query('UPDATE access_tokens SET revoked_at = now() WHERE token_hash = $1', [sha256(tokens.owner)]);
      await gateway.waitForLog('lesson events: lost the listening connection, reconnecting');
      await gateway.waitForLog('lesson events: listening', 2);
    } finally {
      await admin.end();
    }
    expect(errorCodes((await viewerWith(gateway, tokens.owner)).answer)).toEqual(['UNAUTHENTICATED']);
    // Listening again: tokens are remembered again.
    await expectCached(gateway, tokens.coteacher);
  });

  it('while the listening connection is down, no token is remembered', async () => {
    const gateway: ListeningGateway = await startListeningGateway({ TOKEN_CACHE_TTL: '1 minute' });
    gateways.push(gateway);
    await gateway.reset();
    // On the server's own database: a database cannot refuse connections while connected to itself.
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      // Refuse the listener's reconnection for a while: its database no longer accepts new connections
      // (the pool keeps the ones it has).
      const database = new URL(gateway.databaseUrl!).pathname.slice(1);
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
      try {
        await cutListeners(admin, database);
        await gateway.waitForLog('lesson events: lost the listening connection, reconnecting');
        for (let i = 0; i < 3; i += 1) {
          const answer = await viewerWith(gateway, tokens.owner);
          expect(answer.answer.data?.viewer?.id).toBe(String(ids.owner));
          expect(answer.statements).toBe(1);
        }
      } finally {
        await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      }
      await waitFor(() => gateway.logs().filter((line) => line.msg === 'lesson events: listening').length >= 2, 'listening again');
    } finally {
      await admin.end();
    }
    await expectCached(gateway, tokens.owner);
  });
});
