import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { ids, tokens } from '../../kit/fixture.ts';
import { errorCodes, expectCached, viewerWith } from '../../kit/graphql.ts';
import { cutListeners, follow, startListeningGateway, waitFor, type Follower, type ListeningGateway } from '../../kit/live.ts';
import { freshDatabaseEnv, startServerProcess, stopServerProcesses } from '../../kit/server-process.ts';
import { tcpProxy, type TcpProxy } from '../../kit/tcp-proxy.ts';

// The gateway behind PgBouncer in transaction mode (docs/operations.md, Behind a connection pooler), as
// the pooler pass runs it (npm run test:pooler; tests/kit/pgbouncer.ts): the listener's check stops a
// start without DATABASE_DIRECT_URL, naming the fix, and refuses a reconnection that hears nothing; with
// both settings, live lessons work as the server runs them. The rest of the pass runs the suite's own
// files through the same pooler.

const template = inject('lgwTemplate');
const pooled = template.kind === 'postgresql' && Boolean(template.pooler);
const needsPooler = `needs the pooler pass's PgBouncer (npm run test:pooler)${pooled ? '' : ': not running, skipped'}`;

const followers: Follower[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(followers.splice(0).map(async (follower) => follower.client.dispose()));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => stopServerProcesses());

const DEAF = 'lesson events: the new listening connection is deaf to DATABASE_URL, reconnecting';

describe.skipIf(!pooled)(`behind PgBouncer in transaction mode (${needsPooler})`, () => {
  it('the server refuses to start with DATABASE_URL naming the pooler and no DATABASE_DIRECT_URL, and names the fix', async () => {
    const { DATABASE_DIRECT_URL: direct, ...throughThePoolerAlone } = await freshDatabaseEnv('lgw_test_pooler');
    expect(direct).toBeDefined();
    const failed = await startServerProcess(throughThePoolerAlone).then(
      () => new Error('it started'),
      (error: Error) => error,
    );
    expect(failed.message).toContain('The server did not start');
    expect(failed.message).toContain("live lessons' events and the token cache's invalidation cannot work");
    expect(failed.message).toContain('set DATABASE_DIRECT_URL to the PostgreSQL server itself');
  });

  it('with DATABASE_DIRECT_URL and DATABASE_PREPARED_STATEMENTS=0 the server answers, and a FINISHED event reaches a subscriber', async () => {
    const env = await freshDatabaseEnv('lgw_test_pooler');
    expect(env).toMatchObject({ DATABASE_DIRECT_URL: expect.any(String), DATABASE_PREPARED_STATEMENTS: '0' });
    expect(env.DATABASE_URL).toContain(template.kind === 'postgresql' ? template.pooler : '');
    const server = await startServerProcess(env);
    const token = /A demo teacher's token: (\S+)/.exec(server.output())?.[1];
    const lesson = /classroom_activities\/(\d+)\/student_names/.exec(server.output())?.[1];
    expect(token && lesson).toBeTruthy();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const names = await fetch(`${server.origin}/api/v1/classroom_activities/${lesson}/student_names`, { headers });
    expect(names.status).toBe(200);
    const follower = follow(`ws://127.0.0.1:${server.port}/graphql`, lesson!, token);
    followers.push(follower);
    await waitFor(() => server.output().includes('subscription started'), 'subscription started');
    const finished = await fetch(`${server.origin}/api/v1/classroom_activities/${lesson}/finish_lesson`, {
      method: 'PUT',
      headers,
      body: '{}',
    });
    expect(finished.status).toBe(200);
    const { follow_up_url: followUpUrl } = (await finished.json()) as { follow_up_url: string };
    const [event] = await follower.waitForEvents(1);
    expect(event).toMatchObject({ kind: 'FINISHED', classroomActivityId: lesson, completed: true, followUpUrl });
  });

  it('a listening connection that comes back through the pooler is not used: an error is logged, no token is kept, and it listens again once it reaches the server', async () => {
    const env = await freshDatabaseEnv('lgw_test_pooler');
    const server = new URL(env.DATABASE_DIRECT_URL!);
    // The listening connection goes through a proxy, pointed at the server, then at the pooler, then back.
    const proxy: TcpProxy = tcpProxy(server);
    await proxy.start();
    cleanups.push(() => proxy.stop());
    const gateway: ListeningGateway = await startListeningGateway({
      ...env,
      DATABASE_DIRECT_URL: proxy.urlThrough(server.toString()),
      TOKEN_CACHE_TTL: '1 minute',
    });
    cleanups.push(() => gateway.close());
    await gateway.reset();
    await expectCached(gateway, tokens.owner);

    proxy.retarget(new URL(env.DATABASE_URL));
    const admin = new pg.Client({ connectionString: server.toString() });
    await admin.connect();
    cleanups.push(() => admin.end());
    expect(await cutListeners(admin)).toBe(1);
    await waitFor(() => gateway.logs().some((line) => line.msg === DEAF), 'the deaf connection refused', 30_000);
    const deaf = gateway.logs().find((line) => line.msg === DEAF)!;
    expect(deaf.level).toBe(50);
    expect(deaf.err.message).toContain('set DATABASE_DIRECT_URL to the PostgreSQL server itself');
    // Not listening: every request reads its token again.
    for (let i = 0; i < 2; i += 1) {
      const { answer, statements } = await viewerWith(gateway, tokens.owner);
      expect(answer.data?.viewer?.id).toBe(String(ids.owner));
      expect(statements).toBe(1);
    }

    proxy.retarget(server);
    await waitFor(() => gateway.logs().filter((line) => line.msg === 'lesson events: listening').length >= 2, 'listening again', 30_000);
    await expectCached(gateway, tokens.owner);
    // And it hears: a revocation reaches its cache.
    await gateway.writeTokensOrUsers((prisma) => prisma.accessToken.updateMany({ data: { revokedAt: new Date() } }));
    expect(errorCodes((await viewerWith(gateway, tokens.owner)).answer)).toEqual(['UNAUTHENTICATED']);
  }, 120_000);
});
