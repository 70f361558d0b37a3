import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LISTENER_APPLICATION_NAME } from '../../../src/db/listener.ts';
import { ids, tokens } from '../../kit/fixture.ts';
import {
  cutListeners,
  follow,
  followStream,
  startListeningGateway,
  waitFor,
  type Follower,
  type ListeningGateway,
} from '../../kit/live.ts';
import { startServerProcess, stopServerProcesses } from '../../kit/server-process.ts';
import { graphql } from '../../kit/gql/index.ts';

// Live lessons across instances and through failures (docs/contract.md, Live lessons): an event committed
// through one instance reaches the followers of another on the same database, over either transport; the
// listening connection, when killed or refused, comes back and events flow again; SIGTERM closes the
// sockets with 1001 (event streams at SIGTERM: tests/system/hardening/shutdown.test.ts).

const LAUNCH = graphql(`mutation LaunchLesson($id: ID!) { launchLesson(id: $id) { id } }`);
const UNPIN_AND_LOCK = graphql(`mutation Lock($id: ID!) { unpinAndLock(id: $id) { id } }`);
const onServer = Boolean(process.env.DATABASE_URL);

const followers: Follower<{ dispose(): unknown }>[] = [];
afterEach(async () => {
  await Promise.all(followers.splice(0).map(async (follower) => follower.client.dispose()));
});
afterAll(() => stopServerProcesses());

describe.skipIf(!onServer)('on a PostgreSQL server', () => {
  const gateways: ListeningGateway[] = [];
  afterAll(async () => {
    for (const gateway of gateways.reverse()) await gateway.close();
  });

  it('an event committed through one instance reaches the followers of another', async () => {
    const first = await startListeningGateway();
    gateways.push(first);
    const second = await startListeningGateway(first.databaseEnv);
    gateways.push(second);
    await first.reset();

    const follower = follow(second.wsUrl, ids.classroomActivity, tokens.owner);
    followers.push(follower);
    await second.waitForLog('subscription started');
    expect((await first.graphql(LAUNCH, { id: String(ids.classroomActivity) }, tokens.owner)).errors).toBeUndefined();
    expect((await first.graphql(UNPIN_AND_LOCK, { id: String(ids.classroomActivity) }, tokens.owner)).errors).toBeUndefined();
    expect((await follower.waitForEvents(2)).map((event) => event.kind)).toEqual(['LAUNCHED', 'LOCKED']);
  });

  it('an event committed through one instance reaches the event-stream followers of another', async () => {
    const first = await startListeningGateway();
    gateways.push(first);
    const second = await startListeningGateway({ DATABASE_URL: first.databaseUrl! });
    gateways.push(second);
    await first.reset();

    const follower = followStream(second.streamUrl, ids.classroomActivity, tokens.owner);
    followers.push(follower);
    await second.waitForLog('subscription started');
    expect((await first.graphql(LAUNCH, { id: String(ids.classroomActivity) }, tokens.owner)).errors).toBeUndefined();
    expect((await first.graphql(UNPIN_AND_LOCK, { id: String(ids.classroomActivity) }, tokens.owner)).errors).toBeUndefined();
    expect((await follower.waitForEvents(2)).map((event) => event.kind)).toEqual(['LAUNCHED', 'LOCKED']);
  });

  it('after its listening connection is killed, an instance listens again and events flow', async () => {
    const gateway = await startListeningGateway();
    gateways.push(gateway);
    await gateway.reset();
    const follower = follow(gateway.wsUrl, ids.classroomActivity, tokens.owner);
    followers.push(follower);
    await gateway.waitForLog('subscription started');

    const admin = new pg.Client({ connectionString: gateway.databaseUrl });
    await admin.connect();
    try {
      expect(await cutListeners(admin)).toBe(1);
      await gateway.waitForLog('lesson events: lost the listening connection, reconnecting');
      await gateway.waitForLog('lesson events: listening', 2);
      const listening = await admin.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
        [LISTENER_APPLICATION_NAME],
      );
      expect(listening.rows[0].n).toBe(1);
    } finally {
      await admin.end();
    }
    expect((await gateway.graphql(LAUNCH, { id: String(ids.classroomActivity) }, tokens.owner)).errors).toBeUndefined();
    expect((await follower.waitForEvents(1)).map((event) => event.kind)).toEqual(['LAUNCHED']);
  });

  it('retries with a growing wait while the database refuses its listening connection, and events flow once it is back', async () => {
    const gateway = await startListeningGateway();
    gateways.push(gateway);
    const url = new URL(gateway.databaseUrl!);
    const name = url.pathname.slice(1);
    url.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    const lost = () => gateway.logs().filter((line) => line.msg === 'lesson events: lost the listening connection, reconnecting');
    const listening = () => gateway.logs().filter((line) => line.msg === 'lesson events: listening').length;
    const lostBefore = lost().length;
    const listeningBefore = listening();
    try {
      // No new connection to the database (the pool keeps the ones it has), then the listener is cut.
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS false`);
      await cutListeners(admin, name);
      await waitFor(() => lost().length >= lostBefore + 4, 'four failed tries');
    } finally {
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    const waits = lost()
      .slice(lostBefore, lostBefore + 4)
      .map((line) => line.retryInMs as number);
    expect(waits).toEqual([100, 200, 400, 800]);

    await waitFor(() => listening() > listeningBefore, 'listening again');
    const started = gateway.logs().filter((line) => line.msg === 'subscription started').length;
    const follower = follow(gateway.wsUrl, ids.classroomActivity, tokens.owner);
    followers.push(follower);
    await gateway.waitForLog('subscription started', started + 1);
    const answer = await gateway.graphql(UNPIN_AND_LOCK, { id: String(ids.classroomActivity) }, tokens.owner);
    expect(answer.errors).toBeUndefined();
    expect((await follower.waitForEvents(1)).map((event) => event.kind)).toEqual(['LOCKED']);
  });
});

describe('SIGTERM', () => {
  it('closes the subscription sockets with 1001, and the process exits cleanly', async () => {
    const server = await startServerProcess();
    const token = /A demo teacher's token: (\S+)/.exec(server.output())?.[1];
    const classroomActivityId = /classroom_activities\/(\d+)\/student_names/.exec(server.output())?.[1];
    expect(token && classroomActivityId).toBeTruthy();

    let closeCode: number | undefined;
    const follower = follow(`ws://127.0.0.1:${server.port}/graphql`, classroomActivityId!, token, {
      closed: (event) => (closeCode = event.code),
    });
    followers.push(follower);
    await waitFor(() => server.output().includes('subscription started'), 'subscription started');

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await waitFor(() => closeCode !== undefined, 'the socket to close');
    expect(closeCode).toBe(1001);
  });
});
