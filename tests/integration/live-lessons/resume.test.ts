import type { FormattedExecutionResult } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documentText } from '../../kit/gateway.ts';
import { fixture, ids, tokens } from '../../kit/fixture.ts';
import { graphql } from '../../kit/gql/index.ts';
import { cutListeners, rawStream, startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';
import { tcpProxy } from '../../kit/tcp-proxy.ts';

// Live lessons that lose nothing (docs/contract.md, Live lessons): every event has an id, a classroom
// activity a cursor, and a subscription `after` one gets what followed it, then the live ones, each once and
// in order, on both transports; graphql-ws's own client resubscribes after its last id when it reconnects;
// an instance that missed notifications reads them from the store.

const RESUME = graphql(`
  subscription Resume($id: ID!, $after: ID) {
    lessonEvents(classroomActivityId: $id, after: $after) { id kind locked pinned completed }
  }`);
const RESUME_TEXT = documentText(RESUME);
const CURSOR = graphql(`query Cursor($id: ID!) { classroomActivity(id: $id) { lessonEventCursor locked } }`);
const LOCK = graphql(`mutation LockForCursor($id: ID!) { unpinAndLock(id: $id) { lessonEventCursor } }`);
const LAUNCH = graphql(`mutation LaunchForCursor($id: ID!) { launchLesson(id: $id) { lessonEventCursor } }`);
const OTHER_LESSON = 102;

type Event = { id: string; kind: string };
type Subscriber = { results: FormattedExecutionResult<any, unknown>[]; events(): Event[]; ended: Promise<unknown>; client: Client };

let gateway: ListeningGateway;
const clients: Client[] = [];

beforeAll(async () => {
  // Each follower is a client of its own (a socket), all the owner's.
  gateway = await startListeningGateway({ SUBSCRIPTION_CONNECTIONS_PER_TOKEN: '50' });
});
afterAll(() => gateway?.close());
/** The shared fixture with a second lesson in the classroom. */
function withSecondLesson() {
  const data = fixture();
  return {
    ...data,
    classroomActivities: [...data.classroomActivities, { id: OTHER_LESSON, classroomId: ids.classroom, activityId: ids.lonelyActivity }],
  };
}
beforeEach(() => gateway.reset(withSecondLesson()));
afterEach(async () => {
  await Promise.all(clients.splice(0).map(async (client) => client.dispose()));
});

const cursorOf = async (id: number = ids.classroomActivity) =>
  (await gateway.graphql(CURSOR, { id: String(id) }, tokens.owner)).data!.classroomActivity!.lessonEventCursor;
/** The answer's data, or a failure naming its errors. */
function dataOf<Data>(answer: { data?: Data | null; errors?: unknown }): Data {
  if (!answer.data) throw new Error(`the mutation failed: ${JSON.stringify(answer.errors)}`);
  return answer.data;
}
const lock = async () =>
  dataOf(await gateway.graphql(LOCK, { id: String(ids.classroomActivity) }, tokens.owner)).unpinAndLock.lessonEventCursor;
const launch = async () =>
  dataOf(await gateway.graphql(LAUNCH, { id: String(ids.classroomActivity) }, tokens.owner)).launchLesson.lessonEventCursor;

/** A graphql-ws client following the lesson after `after`, as the README shows: each event's id becomes the next `after`. */
function resume(after: string | null, options: { url?: string; token?: string; retry?: boolean } = {}): Subscriber {
  const client = createClient({
    url: options.url ?? gateway.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${options.token ?? tokens.owner}` },
    retryAttempts: options.retry ? 100 : 0,
    retryWait: async () => new Promise((resolve) => setTimeout(resolve, 50)),
    shouldRetry: () => options.retry ?? false,
  });
  clients.push(client);
  const results: FormattedExecutionResult<any, unknown>[] = [];
  const payload = { query: RESUME_TEXT, variables: { id: String(ids.classroomActivity), after } };
  const ended = new Promise((resolve) =>
    client.subscribe(payload, {
      next: (result) => {
        results.push(result);
        const event = (result.data as { lessonEvents?: Event } | undefined)?.lessonEvents;
        // What a reconnecting client sends again: the same payload, now after the last event it got.
        if (event) payload.variables.after = event.id;
      },
      error: (error) => resolve({ error }),
      complete: () => resolve({ complete: true }),
    }),
  );
  const events = () => results.flatMap((result) => (result.data?.lessonEvents ? [result.data.lessonEvents as Event] : []));
  return { results, events, ended, client };
}

const kinds = (events: Event[]) => events.map((event) => event.kind);
const positions = (events: Event[]) => events.map((event) => Number(event.id.split('-')[1]));

describe('ids and cursors', () => {
  it('a cursor before the first event, then the id of the latest; ids grow in commit order; answers carry their own event', async () => {
    const before = await cursorOf();
    expect(before).toBe(`${ids.classroomActivity}-0000000000`);
    const launched = await launch();
    const locked = await lock();
    expect(launched > before && locked > launched).toBe(true);
    expect(await cursorOf()).toBe(locked);
    // Another classroom activity counts its own.
    expect(await cursorOf(OTHER_LESSON)).toBe(`${OTHER_LESSON}-0000000000`);
  });
});

describe('lessonEvents(after:)', () => {
  it('replays every stored event after the cursor, then the live ones, none twice', async () => {
    const start = await cursorOf();
    await launch();
    await lock();
    const follower = resume(start);
    await waitFor(() => follower.events().length >= 2, 'the replay');
    await lock();
    await waitFor(() => follower.events().length >= 3, 'the live event');
    expect(kinds(follower.events())).toEqual(['LAUNCHED', 'LOCKED', 'LOCKED']);
    expect(positions(follower.events())).toEqual([1, 2, 3]);
    // After the latest cursor: nothing replayed, the next one live.
    const current = resume(await cursorOf());
    await gateway.waitForLog('subscription started', 2);
    await launch();
    await waitFor(() => current.events().length >= 1, 'the next event');
    expect(positions(current.events())).toEqual([4]);
  });

  it('subscribers resuming while events are committed get each event exactly once, in order', async () => {
    const start = await cursorOf();
    const followers: Subscriber[] = [];
    const changes: Promise<unknown>[] = [];
    for (let round = 0; round < 6; round += 1) {
      changes.push(lock(), launch());
      followers.push(resume(start), resume(round === 0 ? null : start));
    }
    await Promise.all(changes);
    const latest = positions([{ id: await cursorOf(), kind: '' }])[0]!;
    expect(latest).toBe(12);
    for (const [index, follower] of followers.entries()) {
      if (index === 1) continue; // live only: from whenever it registered
      await waitFor(() => follower.events().length >= 12, `follower ${index}'s 12 events`).catch((error: unknown) => {
        throw new Error(`${String(error)}: ${JSON.stringify(followers.map((each) => positions(each.events())))}`);
      });
      expect(positions(follower.events())).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    }
    const liveOnly = positions(followers[1]!.events());
    expect(liveOnly).toEqual(Array.from({ length: liveOnly.length }, (_, i) => 13 - liveOnly.length + i));
  });

  it('refuses an `after` that is not a cursor of this classroom activity, after the access checks', async () => {
    await lock();
    const refusedWith = async (after: string, token?: string) => {
      const follower = resume(after, token ? { token } : {});
      await follower.ended;
      expect(follower.events()).toEqual([]);
      return follower.results[0]?.errors?.[0]?.extensions?.code;
    };
    expect(await refusedWith('nonsense')).toBe('BAD_USER_INPUT');
    expect(await refusedWith(`${OTHER_LESSON}-0000000000`)).toBe('BAD_USER_INPUT');
    expect(await refusedWith(`${ids.classroomActivity}-0000000002`)).toBe('BAD_USER_INPUT');
    expect(await refusedWith('nonsense', tokens.otherTeacher)).toBe('FORBIDDEN');
  });
});

describe('Server-Sent Events', () => {
  it('each event carries its id, and a GET with Last-Event-ID resumes after it (rather than after the older `after` of its URL)', async () => {
    const start = await cursorOf();
    await launch();
    const first = await rawStream(gateway.streamUrl, {
      method: 'GET',
      query: RESUME_TEXT,
      variables: { id: String(ids.classroomActivity), after: start },
      headers: { authorization: `Bearer ${tokens.owner}` },
    });
    await lock();
    await waitFor(() => first.events().filter((event) => event.event === 'next').length >= 2, 'two events on the stream');
    const sent = first.events().filter((event) => event.event === 'next');
    expect(sent.map((event) => event.id)).toEqual(sent.map((event) => event.data.data.lessonEvents.id));
    first.close();

    await launch();
    // As a browser's EventSource reconnects: the same URL (its `after` older), and the last id it got, which wins.
    const again = await rawStream(gateway.streamUrl, {
      method: 'GET',
      variables: { id: String(ids.classroomActivity), after: start },
      query: RESUME_TEXT,
      headers: { authorization: `Bearer ${tokens.owner}`, 'last-event-id': sent[0]!.id! },
    });
    await waitFor(() => again.events().filter((event) => event.event === 'next').length >= 2, 'the resumed stream');
    const resumed = again.events().filter((event) => event.event === 'next');
    expect(resumed.map((event) => event.data.data.lessonEvents.kind)).toEqual(['LOCKED', 'LAUNCHED']);
    expect(resumed.map((event) => event.id)).toEqual([`${ids.classroomActivity}-0000000002`, `${ids.classroomActivity}-0000000003`]);
    again.close();
  });
});

describe("graphql-ws's own client", () => {
  it('retries after a dropped connection and resubscribes after its last id: nothing missed, nothing twice', async () => {
    const proxy = tcpProxy(new URL(gateway.wsUrl));
    await proxy.start();
    const follower = resume(await cursorOf(), { url: proxy.urlThrough(gateway.wsUrl), retry: true });
    await gateway.waitForLog('subscription started', 1);
    await launch();
    await waitFor(() => follower.events().length >= 1, 'the first event');
    await proxy.stop();
    // Committed while the client is away.
    await lock();
    await launch();
    await proxy.start();
    await waitFor(() => follower.events().length >= 3, 'the missed events');
    await lock();
    await waitFor(() => follower.events().length >= 4, 'the next live event');
    expect(kinds(follower.events())).toEqual(['LAUNCHED', 'LOCKED', 'LAUNCHED', 'LOCKED']);
    expect(positions(follower.events())).toEqual([1, 2, 3, 4]);
    await proxy.stop();
  });
});

describe.skipIf(!process.env.DATABASE_URL)('an instance whose listening connection was down', () => {
  it('delivers what was committed meanwhile, in order, before anything newer', async () => {
    const follower = resume(null);
    await gateway.waitForLog('subscription started', 1);
    const url = new URL(gateway.databaseUrl!);
    const name = url.pathname.slice(1);
    url.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    const lost = () => gateway.logs().filter((line) => line.msg === 'lesson events: lost the listening connection, reconnecting').length;
    const lostBefore = lost();
    const listening = () => gateway.logs().filter((line) => line.msg === 'lesson events: listening').length;
    const listeningBefore = listening();
    try {
      // No new connection to the database (the pool keeps those it has), then the listener is cut.
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS false`);
      expect(await cutListeners(admin, name)).toBe(1);
      await waitFor(() => lost() > lostBefore, 'the loss noticed');
      await lock();
      await launch();
    } finally {
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    expect(follower.events()).toEqual([]);
    await waitFor(() => listening() > listeningBefore, 'listening again');
    await lock();
    await waitFor(() => follower.events().length >= 3, 'the missed events and the new one');
    expect(kinds(follower.events())).toEqual(['LOCKED', 'LAUNCHED', 'LOCKED']);
    expect(positions(follower.events())).toEqual([1, 2, 3]);
  });
});

describe('retention (LESSON_EVENTS_RETENTION)', () => {
  let brief: ListeningGateway;
  beforeAll(async () => {
    brief = await startListeningGateway({ LESSON_EVENTS_RETENTION: '1s' });
  });
  afterAll(() => brief?.close());

  it('deletes older events; an `after` some of whose followers are gone is LESSON_EVENTS_EXPIRED, the cursor is always safe', async () => {
    await brief.reset(withSecondLesson());
    const cursor = async () => (await brief.graphql(CURSOR, { id: String(ids.classroomActivity) }, tokens.owner)).data!.classroomActivity!;
    const start = (await cursor()).lessonEventCursor;
    await brief.graphql(LAUNCH, { id: String(ids.classroomActivity) }, tokens.owner);
    await brief.graphql(LOCK, { id: String(ids.classroomActivity) }, tokens.owner);
    const latest = (await cursor()).lessonEventCursor;
    await waitFor(async () => (await brief.database.prisma.lessonEvent.count()) === 0, 'the events pruned', 15_000);

    for (const after of [start, `${ids.classroomActivity}-0000000001`]) {
      const expired = resume(after, { url: brief.wsUrl });
      await expired.ended;
      expect(expired.events()).toEqual([]);
      expect(expired.results.map((result) => result.errors?.[0]?.extensions?.code)).toEqual(['LESSON_EVENTS_EXPIRED']);
    }
    const safe = resume(latest, { url: brief.wsUrl });
    await brief.waitForLog('subscription started', 1);
    await brief.graphql(LAUNCH, { id: String(ids.classroomActivity) }, tokens.owner);
    await waitFor(() => safe.events().length >= 1, 'the next event');
    expect(positions(safe.events())).toEqual([3]);
  });
});
