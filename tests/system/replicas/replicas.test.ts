import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createServer, type Socket } from 'node:net';
import pg from 'pg';
import { ids, tokens } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { matching, scrape } from '../../kit/metrics.ts';
import { freePort } from '../../kit/ports.ts';
import { follow, startListeningGateway, waitFor, type Follower, type ListeningGateway } from '../../kit/live.ts';
import { startReplicaPair, type ReplicaPair } from '../../kit/replica.ts';

// Reads on a real streaming replica (docs/operations.md, Read replicas), as the replica pass runs it
// (npm run test:replicas; tests/kit/replica.ts): replay paused makes the replica stale on purpose, and each rule
// is seen from outside: a stale answer proves a replica served, a fresh one that read-your-writes held.

const enabled = process.env.TEST_REPLICAS === '1';
const needs = `needs the replica pass (npm run test:replicas)${enabled ? '' : ': not running, skipped'}`;

const LESSON = 'query Lesson($id: ID!) { classroomActivity(id: $id) { id locked pinned } }';
const LAUNCH = 'mutation Launch($id: ID!) { launchLesson(id: $id) { id pinned } }';
const LOCK = 'mutation Lock($id: ID!) { unpinAndLock(id: $id) { id pinned } }';
const lesson = String(ids.classroomActivity);

describe.skipIf(!enabled)(`reads on a streaming replica (${needs})`, () => {
  let pair: ReplicaPair;
  let a: ListeningGateway;
  let b: Gateway;
  let primary: pg.Client;
  const followers: Follower[] = [];

  const pinned = async (gateway: Gateway, token: string) => {
    const answer = await gateway.graphql(LESSON, { id: lesson }, token);
    expect(answer.errors).toBeUndefined();
    return answer.data.classroomActivity.pinned as boolean;
  };
  const replicaOf = (gateway: Gateway) => gateway.database.replicas!.replicas[0]!;
  /** The gateway has polled the replica since it caught up with everything written so far, and reads may go to it. */
  const inUse = async (gateway: Gateway) => {
    await pair.replica.caughtUp();
    const [{ lsn }] = (await primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows as [{ lsn: string }];
    const { parseLsn } = await import('../../../src/db/replicas.ts');
    await waitFor(
      () => replicaOf(gateway).replayLsn >= parseLsn(lsn) && gateway.database.replicas!.usable(replicaOf(gateway)),
      'the replica in use',
    );
  };

  beforeAll(async () => {
    pair = await startReplicaPair();
    primary = new pg.Client({ connectionString: pair.primary.url });
    await primary.connect();
    const env = { DATABASE_URL: pair.primary.url, DATABASE_REPLICA_URLS: pair.replica.url, DATABASE_REPLICA_MAX_LAG: '1 hour' };
    a = await startListeningGateway(env);
    await a.reset();
    b = await startGateway(env);
  });
  afterAll(async () => {
    await Promise.all(followers.map(async (follower) => follower.client.dispose()));
    await b?.close();
    await a?.close();
    await primary?.end();
    await pair?.stop();
  });

  it("a query reads the replica; after a caller's mutation, that caller's reads on every instance show it, others' may not yet", async () => {
    await inUse(a);
    await inUse(b);
    const was = await pinned(a, tokens.coteacher);
    const before = { ...a.database.replicas!.reads };
    await pair.replica.pauseReplay();
    try {
      const changed = await a.graphql(was ? LOCK : LAUNCH, { id: lesson }, tokens.owner);
      expect(changed.errors).toBeUndefined();
      // The writer, here and on the other instance: its write, though the replica has not replayed it.
      expect(await pinned(a, tokens.owner)).toBe(!was);
      expect(await pinned(b, tokens.owner)).toBe(!was);
      // Another caller reads the replica, which still has the old state: the proof that queries go there.
      expect(await pinned(a, tokens.coteacher)).toBe(was);
      expect(await pinned(b, tokens.coteacher)).toBe(was);
      // REST GETs too.
      const names = await a.rest('GET', `/api/v1/classroom_activities/${lesson}/student_names`, { token: tokens.coteacher });
      expect(names.status).toBe(200);
    } finally {
      await pair.replica.resumeReplay();
    }
    await inUse(a);
    expect(await pinned(a, tokens.coteacher)).toBe(!was);
    expect(a.database.replicas!.reads.replica).toBeGreaterThan(before.replica);
  });

  it('after an instance delivered a lesson event, its reads of that classroom activity show at least that state', async () => {
    await inUse(a);
    await inUse(b);
    const follower = follow(a.wsUrl, lesson, tokens.coteacher);
    followers.push(follower);
    await waitFor(() => a.logs().some((line) => line.msg === 'subscription started'), 'subscription started');
    const was = await pinned(a, tokens.coteacher);
    await pair.replica.pauseReplay();
    try {
      // The owner changes the lesson on the other instance; this one delivers the event to the co-teacher.
      const changed = await b.graphql(was ? LOCK : LAUNCH, { id: lesson }, tokens.owner);
      expect(changed.errors).toBeUndefined();
      await follower.waitForEvents(1);
      expect(await pinned(a, tokens.coteacher)).toBe(!was);
      // Not the other instance, which delivered nothing: it may still read the replica's state.
      expect(await pinned(b, tokens.coteacher)).toBe(was);
    } finally {
      await pair.replica.resumeReplay();
    }
  });

  it('an anonymous public read is not tagged with a catalogue version its replica has not replayed', async () => {
    await inUse(a);
    await pair.replica.pauseReplay();
    try {
      const renamed = await a.graphql(
        'mutation Rename($id: ID!) { updateActivity(id: $id, input: { name: "Renamed on the primary" }) { name } }',
        { id: String(ids.lesson) },
        tokens.staff,
      );
      expect(renamed.errors).toBeUndefined();
      await a.heardAllSoFar();
      const read = await a.app.inject({
        method: 'GET',
        url: `/graphql?query=${encodeURIComponent(`{ activity(id: "${ids.lesson}") { name } }`)}`,
      });
      expect(read.statusCode).toBe(200);
      expect(JSON.parse(read.body).data.activity.name).toBe('Renamed on the primary');
    } finally {
      await pair.replica.resumeReplay();
    }
  });

  it('a replica lagging past the limit, or down, is left out and taken back; no read fails meanwhile', async () => {
    const metricsPort = await freePort();
    const c = await startListeningGateway({
      DATABASE_URL: pair.primary.url,
      DATABASE_REPLICA_URLS: pair.replica.url,
      DATABASE_REPLICA_MAX_LAG: '300ms',
      METRICS_PORT: String(metricsPort),
    });
    const metrics = () => scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    const label = { replica: `127.0.0.1:${pair.replica.port}` };
    try {
      await inUse(c);
      const replicas = c.database.replicas!;
      await pinned(c, tokens.coteacher);
      const inUseNow = await metrics();
      expect(matching(inUseNow, 'db_replicas_in_use')[0]?.value).toBe(1);
      expect(matching(inUseNow, 'db_reads_total', { target: 'replica' })[0]?.value).toBeGreaterThan(0);
      expect(matching(inUseNow, 'db_replica_lag_seconds', label)[0]?.value).toBeLessThanOrEqual(0.3);
      await pair.replica.pauseReplay();
      try {
        await primary.query(`UPDATE classroom_activities SET pinned = NOT pinned WHERE id = ${ids.classroomActivity}`);
        await waitFor(() => !replicas.usable(replicaOf(c)), 'the lagging replica left out');
        expect(matching(await metrics(), 'db_replicas_in_use')[0]?.value).toBe(0);
        await c.waitForLog('read replica left out: its reads go to the primary');
        expect(matching(await metrics(), 'db_replica_lag_seconds', label)[0]?.value).toBeGreaterThan(0.3);
        const fresh = (
          await primary.query<{ pinned: boolean }>(`SELECT pinned FROM classroom_activities WHERE id = ${ids.classroomActivity}`)
        ).rows[0]!.pinned;
        expect(await pinned(c, tokens.coteacher)).toBe(fresh);
      } finally {
        await pair.replica.resumeReplay();
      }
      await inUse(c);
      await c.waitForLog('read replica taken back');

      await pair.replica.stop();
      try {
        // Reads sent before the poll notices go to the primary when the replica fails them.
        for (let i = 0; i < 5; i += 1) expect(typeof (await pinned(c, tokens.coteacher))).toBe('boolean');
        await waitFor(() => !replicas.usable(replicaOf(c)), 'the stopped replica left out');
        expect(typeof (await pinned(c, tokens.coteacher))).toBe('boolean');
      } finally {
        await pair.replica.start();
      }
      await inUse(c);
      const before = replicas.reads.replica;
      await pinned(c, tokens.coteacher);
      expect(replicas.reads.replica).toBeGreaterThan(before);
    } finally {
      await c.close();
    }
  });

  it('a replica that hangs (its connections go silent) is left out and taken back; every read answers meanwhile', async () => {
    const proxy = await silentProxy(pair.replica.port);
    const c = await startGateway({ DATABASE_URL: pair.primary.url, DATABASE_REPLICA_URLS: proxy.url, DATABASE_REPLICA_MAX_LAG: '1 hour' });
    try {
      await inUse(c);
      const replicas = c.database.replicas!;
      proxy.silent = true;
      await Promise.all([0, 1, 2].map(async () => expect(typeof (await pinned(c, tokens.coteacher))).toBe('boolean')));
      await waitFor(() => !replicas.usable(replicaOf(c)), 'the silent replica left out');
      expect(typeof (await pinned(c, tokens.coteacher))).toBe('boolean');
      proxy.silent = false;
      await inUse(c);
    } finally {
      await c.close();
      await proxy.close();
    }
  });
});

/** A TCP proxy to a local port whose connections, once `silent`, forward nothing more either way (a hung server, a cut network). */
async function silentProxy(port: number) {
  const sockets = new Set<Socket>();
  const state = { silent: false };
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('error', () => {});
      from.on('close', () => sockets.delete(from));
      from.on('data', (chunk) => void (state.silent || to.write(chunk)));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as { port: number };
  return Object.assign(state, {
    url: `postgresql://postgres@127.0.0.1:${own}/postgres`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}
