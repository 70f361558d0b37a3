import { Agent } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { haproxyExecutable, startHAProxy, withoutHAProxy, type HAProxy } from '../../kit/haproxy.ts';
import { follow, rawStream, waitFor, type Follower } from '../../kit/live.ts';
import { freshDatabaseEnv, startServerProcess, stopServerProcesses, type ServerProcess } from '../../kit/server-process.ts';
import { followLessonOverSocket, followLessonOverStream, Tally, type Subscriber } from './deploy-clients.ts';
import { freePort } from '../../kit/ports.ts';

// Rolling deploys (docs/operations.md, A rolling deploy). On SIGTERM an instance says it is not
// ready and serves on for SHUTDOWN_DELAY, then drains, closing its sockets spread over SHUTDOWN_SPREAD. Behind
// HAProxy with health checks on /readyz, three instances on one PostgreSQL database restarted one by one
// while reads run, a lesson is launched, locked and finished and subscribers follow it: no request fails,
// and every subscriber, resuming after its last id, gets every event exactly once, in order.

const onServer = Boolean(process.env.DATABASE_URL);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const demoOf = (server: ServerProcess) => ({
  token: /A demo teacher's token: (\S+)/.exec(server.output())?.[1] ?? '',
  lesson: /classroom_activities\/(\d+)\/student_names/.exec(server.output())?.[1] ?? '',
});

const followers: Follower[] = [];
afterEach(async () => {
  await Promise.all(followers.splice(0).map(async (follower) => follower.client.dispose()));
});
afterAll(() => stopServerProcesses());

describe('SIGTERM with SHUTDOWN_DELAY and SHUTDOWN_SPREAD', () => {
  it('/readyz is 503 at once while everything else is served for the delay; then sockets close with 1001 and streams end, spread', async () => {
    // Idle connections wait long (and the drain's backstop for them, src/http/connections.ts, with them): the
    // drain must close each stream's own connection, not leave it idle.
    const server = await startServerProcess({
      SHUTDOWN_DELAY: '5s',
      SHUTDOWN_SPREAD: '2s',
      KEEP_ALIVE_TIMEOUT: '1 hour',
      HEADERS_TIMEOUT: '1 minute',
      REQUEST_TIMEOUT: '1 minute',
    });
    const { token, lesson } = demoOf(server);
    expect(token && lesson).toBeTruthy();
    const closes: { code: number; at: number }[] = [];
    for (let i = 0; i < 2; i += 1)
      followers.push(
        follow(`ws://127.0.0.1:${server.port}/graphql`, lesson, token, {
          closed: (event) => closes.push({ code: event.code, at: Date.now() }),
        }),
      );
    // Streams on connections kept alive as long as the server keeps them (as a balancer's are).
    const agent = new Agent({ keepAlive: true });
    const streams = await Promise.all(
      [0, 1].map(() =>
        rawStream(`${server.origin}/graphql/stream`, {
          method: 'GET',
          agent,
          headers: { authorization: `Bearer ${token}` },
          variables: { id: lesson },
        }),
      ),
    );
    await waitFor(() => server.output().split('"msg":"subscription started"').length === 5, 'the four subscriptions started', 30_000);

    server.child.kill('SIGTERM');
    await waitFor(async () => (await fetch(`${server.origin}/readyz`)).status === 503, '/readyz to answer 503');
    // Still serving everything: a read, a mutation, and its event to the open sockets.
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const read = await fetch(`${server.origin}/api/v1/classroom_activities/${lesson}/student_names`, { headers });
    expect(read.status).toBe(200);
    expect(read.headers.get('connection')).toBe('close');
    const launch = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: 'mutation Launch($id: ID!) { launchLesson(id: $id) { id } }', variables: { id: lesson } }),
    });
    expect(await launch.json()).toEqual({ data: { launchLesson: { id: lesson } } });
    for (const follower of followers) expect((await follower.waitForEvents(1)).map((event) => event.kind)).toEqual(['LAUNCHED']);
    expect(closes).toEqual([]);

    const exited = await Promise.race([server.exited, sleep(30_000).then(() => 'still running')]);
    expect(exited, server.output()).toBe(0);
    for (const stream of streams) expect(stream.events().map((event) => event.event)).toEqual(['next', 'complete']);
    expect(closes.map((close) => close.code)).toEqual([1001, 1001]);
    // Two sockets: one closed at once, one half-way through the spread, 1 s later (half that is left for
    // this process's own delays in seeing them).
    expect(closes[1]!.at - closes[0]!.at).toBeGreaterThanOrEqual(500);
    const output = server.output();
    expect(output.indexOf('not ready, serving on for SHUTDOWN_DELAY')).toBeGreaterThan(-1);
    expect(output.indexOf('draining in-flight requests')).toBeGreaterThan(output.indexOf('not ready, serving on for SHUTDOWN_DELAY'));
  }, 60_000);
});

/**
 * The instances' settings. The balancer checks /readyz every 200 ms and takes an instance out after two failed
 * checks: SHUTDOWN_DELAY leaves it ample time, even on a loaded machine.
 */
const INSTANCE_ENV = {
  SHUTDOWN_DELAY: '3s',
  SHUTDOWN_SPREAD: '1s',
  RATE_LIMIT_MAX: '1000000',
  SUBSCRIPTION_CONNECTIONS_PER_TOKEN: '1000',
};
const READERS = 4;
const SOCKET_SUBSCRIBERS = 4;
const STREAM_SUBSCRIBERS = 4;

const skipped = !onServer ? 'needs a PostgreSQL server (DATABASE_URL): skipped on PGlite' : withoutHAProxy;

describe.skipIf(!onServer || !haproxyExecutable())(`a rolling deploy behind HAProxy${skipped ? ` (${skipped})` : ''}`, () => {
  let haproxy: HAProxy | undefined;
  const subscribers: Subscriber[] = [];
  afterAll(async () => {
    for (const subscriber of subscribers) await subscriber.stop();
    await haproxy?.stop();
  });

  it('restarting three instances one by one while reads, lesson changes and subscribers run fails no request and loses no event', async () => {
    const database = await freshDatabaseEnv('lgw_test_deploy');
    // Three slots, each with two ports: an instance's replacement starts on the other one as it leaves (as
    // a deploy that starts the new before the old is gone does).
    const ports = await Promise.all([0, 1, 2, 3, 4, 5].map(() => freePort()));
    const slots = [0, 1, 2].map((i) => ({
      ports: [ports[2 * i]!, ports[2 * i + 1]!] as const,
      names: [`slot${i + 1}a`, `slot${i + 1}b`] as const,
    }));
    const start = (port: number, env: Record<string, string> = {}) =>
      startServerProcess({ ...database, ...INSTANCE_ENV, PORT: String(port), DEMO_DATA: '0', ...env });
    // One loads the demo data (and prints its teacher's token); the others find it there.
    const instances = await Promise.all(slots.map((slot, i) => start(slot.ports[0], { DEMO_DATA: i === 0 ? '1' : '0' })));
    const { token, lesson } = demoOf(instances[0]!);
    expect(token && lesson).toBeTruthy();
    haproxy = await startHAProxy(
      slots.flatMap((slot) => slot.names.map((name, j) => ({ name, port: slot.ports[j]! }))),
      { checkIntervalMs: 200 },
    );
    for (const slot of slots) await haproxy.waitForServer(slot.names[0], 'UP');
    const front = haproxy.origin;
    const tally = new Tally(front, token);

    // The subscribers start from the lesson's cursor, as a client that has just read its state does.
    const followed = { id: lesson, token, after: await tally.cursor(lesson) };
    for (let i = 0; i < SOCKET_SUBSCRIBERS; i += 1)
      subscribers.push(followLessonOverSocket(`ws://127.0.0.1:${haproxy.port}/graphql`, followed));
    for (let i = 0; i < STREAM_SUBSCRIBERS; i += 1) subscribers.push(followLessonOverStream(`${front}/graphql/stream`, followed));
    /** Subscriptions running on the instances serving (each logs its subscriptions' starts and ends). */
    const running = () =>
      instances.reduce(
        (sum, instance) =>
          sum +
          instance.output().split('"msg":"subscription started"').length -
          instance.output().split('"msg":"subscription ended"').length,
        0,
      );
    await waitFor(() => running() === subscribers.length, 'every subscriber subscribed', 30_000);

    // Traffic for the whole deploy: readers, and the teacher launching and locking the lesson in turn.
    let deploying = true;
    const readers = Array.from({ length: READERS }, (_, i) =>
      (async () => {
        for (let n = i; deploying; n += 1) {
          await tally.read(n % 2 === 0 ? 'rest' : 'graphql', lesson);
          await sleep(20);
        }
      })(),
    );
    const writer = (async () => {
      for (let n = 0; deploying; n += 1) {
        await tally.change(n % 2 === 0 ? 'launchLesson' : 'unpinAndLock', lesson);
        await sleep(100);
      }
    })();

    // One slot at a time: the old instance gets SIGTERM as its replacement starts; the next slot's turn
    // comes once the balancer has taken the old one out and the new one in. The old ones drain meanwhile.
    const left: Promise<number | null>[] = [];
    for (const [i, slot] of slots.entries()) {
      const leaving = instances[i]!;
      leaving.child.kill('SIGTERM');
      left.push(leaving.exited);
      const [replacement] = await Promise.all([start(slot.ports[1]), haproxy.waitForServer(slot.names[0], 'DOWN')]);
      instances[i] = replacement;
      await haproxy.waitForServer(slot.names[1], 'UP');
    }
    expect(await Promise.all(left)).toEqual([0, 0, 0]);
    deploying = false;
    await Promise.all([...readers, writer]);

    // Every subscriber was moved (its first instance left) and subscribed again; the lesson's end reaches them all.
    await waitFor(() => running() === subscribers.length, 'every subscriber subscribed again', 30_000);
    await tally.change('finishLesson', lesson);
    await waitFor(() => subscribers.every((subscriber) => subscriber.events().at(-1)?.kind === 'FINISHED'), 'FINISHED at every subscriber');

    expect(tally.failures).toEqual([]);
    expect(subscribers.flatMap((subscriber) => subscriber.failures)).toEqual([]);
    expect(tally.reads).toBeGreaterThan(0);
    expect(tally.changes.length).toBeGreaterThan(2);
    for (const subscriber of subscribers) expect(subscriber.connections()).toBeGreaterThanOrEqual(2);
    // No instance answered 5xx through the balancer, not even one the balancer then retried elsewhere.
    const servers = await haproxy.servers();
    expect(Object.values(servers).map((server) => server.responses5xx)).toEqual([0, 0, 0, 0, 0, 0]);
    // Each subscriber resumed after its last event's id (deploy-clients.ts, resumeAfter; Last-Event-ID on
    // streams) and got every committed event exactly once, in commit order, with its id: those committed
    // while it was between two instances too.
    expect(tally.changes.at(-1)?.kind).toBe('FINISHED');
    for (const subscriber of subscribers) expect(subscriber.events().map(({ id, kind }) => ({ id, kind }))).toEqual(tally.changes);
  }, 120_000);
});
