import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import type { Client as StreamClient } from 'graphql-sse';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import {
  followStream,
  rawStream,
  refusal,
  startListeningGateway,
  waitFor,
  type Follower,
  type ListeningGateway,
  type RawStream,
} from '../../kit/live.ts';

// An event stream's life and limits (docs/contract.md, Live lessons), as lifecycle.test.ts and
// limits.test.ts check a socket's: connections per caller counted across both transports, the rate
// limit, keep-alive comments, a reader that stops reading or goes away, the drain, and the log lines.

let gateway: ListeningGateway;
const sockets: Client[] = [];
const followers: Follower<StreamClient>[] = [];
const streams: RawStream[] = [];

beforeAll(async () => {
  gateway = await startListeningGateway({ SUBSCRIPTION_CONNECTIONS_PER_TOKEN: '2', RATE_LIMIT_MAX: '40' });
  await gateway.reset();
});
afterAll(() => gateway?.close());
afterEach(async () => {
  for (const follower of followers.splice(0)) follower.client.dispose();
  for (const stream of streams.splice(0)) stream.close();
  await Promise.all(sockets.splice(0).map(async (client) => client.dispose()));
});

const startedSoFar = () => gateway.logs().filter((line) => line.msg === 'subscription started').length;

/** A graphql-ws socket of `token`, connected (or closed: `code` tells how). */
function socket(token: string): Promise<{ connected: true } | { code: number }> {
  return new Promise((resolve) => {
    const client = createClient({
      url: gateway.wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => {},
      connectionParams: { authorization: `Bearer ${token}` },
      on: { connected: () => resolve({ connected: true }), closed: (event: any) => resolve({ code: event.code }) },
    });
    sockets.push(client);
  });
}

/** A stream of `token` following the lesson, once its subscription has started. */
async function stream(token: string) {
  const started = startedSoFar();
  const follower = followStream(gateway.streamUrl, ids.classroomActivity, token);
  followers.push(follower);
  await gateway.waitForLog('subscription started', started + 1);
  return follower;
}

describe('an event stream’s limits', () => {
  it('counts a caller’s sockets and streams together against SUBSCRIPTION_CONNECTIONS_PER_TOKEN; one gone makes room at once', async () => {
    expect(await socket(tokens.owner)).toEqual({ connected: true });
    const first = await stream(tokens.owner);
    // Two held: a third stream is 429, and so is a third socket (4429).
    const third = followStream(gateway.streamUrl, ids.classroomActivity, tokens.owner);
    followers.push(third);
    const refused = await refusal(third.ended);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ errors: [expect.objectContaining({ extensions: { code: 'RATE_LIMITED' } })] });
    expect(await socket(tokens.owner)).toEqual({ code: 4429 });
    // Another caller is not affected.
    await stream(tokens.coteacher);

    // The first stream's client goes away: its subscription ends, and its room is free for the next.
    const ended = gateway.logs().filter((line) => line.msg === 'subscription ended').length;
    first.client.dispose();
    await gateway.waitForLog('subscription ended', ended + 1);
    await waitFor(async () => 'connected' in (await socket(tokens.owner)), 'a socket in the freed room');
  });

  it('counts each stream against the caller’s rate limit: the one over it is answered 429 and never opened', async () => {
    const token = tokens.student;
    const statuses: number[] = [];
    for (let i = 0; i < 45 && !statuses.includes(429); i += 1) {
      const opened = await rawStream(gateway.streamUrl, {
        headers: { authorization: `Bearer ${token}` },
        variables: { id: String(ids.classroomActivity) },
      });
      statuses.push(opened.status);
      opened.close();
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect((await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`, { token })).status).toBe(429);
  });

  it('ends the connection of a stream asked for during the drain, rather than answer it 503 (a browser would give up for good)', async () => {
    const draining = await startListeningGateway({}, { lifecycle: { draining: true } });
    try {
      const outcome = await new Promise<string>((resolve) => {
        const asked = request(draining.streamUrl, { headers: { accept: 'text/event-stream', authorization: `Bearer ${tokens.owner}` } });
        asked.once('response', (response) => resolve(`answered ${response.statusCode}`));
        asked.once('error', (error: NodeJS.ErrnoException) => resolve(`cut: ${error.code}`));
        asked.end();
      });
      expect(outcome).toBe('cut: ECONNRESET');
      // Any other request is answered 503, as before.
      expect((await draining.app.inject({ method: 'GET', url: '/api/v1/activities/uids_and_flags' })).statusCode).toBe(503);
    } finally {
      await draining.close();
    }
  });
});

describe('an event stream’s life', () => {
  it('holds a reader that has stopped reading to its 256 queued events: once it reads again, what it got came in order, then complete', async () => {
    const started = startedSoFar();
    const opened = await rawStream(gateway.streamUrl, {
      headers: { authorization: `Bearer ${tokens.owner}` },
      query: SLOW,
      variables: { id: String(ids.classroomActivity) },
    });
    streams.push(opened);
    await gateway.waitForLog('subscription started', started + 1);

    // Stop reading, then send more than the sockets' buffers hold, in transactions of 100: each batch alone
    // fits the subscriber's queue, so only a stream that waits for its socket lets that queue overflow; one
    // that queued events without bound would still hold every one of them.
    opened.response.pause();
    const sent = 15_000;
    for (let from = 0; from < sent; from += 100) {
      await notifyMany(ids.classroomActivity, from, 100, LARGE_URL);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    opened.response.resume();
    await waitFor(() => opened.events().at(-1)?.event === 'complete', 'complete', 30_000);

    const received = opened
      .events()
      .filter((message) => message.event === 'next')
      .map((message) => message.data.data.lessonEvents.at as string);
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan(sent);
    expect(received).toEqual([...received].sort());
  }, 90_000);

  it('logs a stream’s subscription start, refusal and end with its user and request id, never a token', async () => {
    const follower = await stream(tokens.owner);
    const line = gateway
      .logs()
      .filter((entry) => entry.msg === 'subscription started')
      .at(-1)!;
    expect(line).toMatchObject({ userId: ids.owner, classroomActivityId: String(ids.classroomActivity), subscription: expect.any(String) });
    follower.client.dispose();
    const itsEnd = () => gateway.logs().find((entry) => entry.msg === 'subscription ended' && entry.subscription === line.subscription);
    await waitFor(() => itsEnd() !== undefined, 'its end');
    expect(itsEnd()).toMatchObject({ userId: ids.owner });

    // A refused one: its line, then its request's, once the server has ended the stream.
    const outsider = followStream(gateway.streamUrl, ids.classroomActivity, tokens.otherTeacher);
    followers.push(outsider);
    expect(await outsider.ended).toEqual({ complete: true });
    const refused = gateway
      .logs()
      .filter((entry) => entry.msg === 'subscription refused')
      .at(-1)!;
    expect(refused).toMatchObject({ userId: ids.otherTeacher, code: 'FORBIDDEN' });
    await waitFor(
      () => gateway.logs().some((entry) => entry.msg === 'request' && entry.reqId === refused.subscription),
      'its request line',
    );
    expect(gateway.logs().find((entry) => entry.msg === 'request' && entry.reqId === refused.subscription)).toMatchObject({
      method: 'POST',
      route: '/graphql/stream',
      operation: 'Follow',
      statusCode: 200,
      userId: ids.otherTeacher,
    });
    expect(JSON.stringify(gateway.logs())).not.toContain(tokens.owner);
    expect(JSON.stringify(gateway.logs())).not.toContain(tokens.otherTeacher);
  });
});

describe('an event stream’s connection', () => {
  const port = () => new URL(gateway.streamUrl).port;
  /** A stream asked for on a connection of its own (GET, as a browser's EventSource asks), and what came back on it. */
  async function streamConnection(token: string, pipelined = '') {
    const serverSide = new Promise<Socket>((resolve) => gateway.app.server.once('connection', resolve));
    const socket = connect(Number(port()), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    const target = new URL(gateway.streamUrl);
    target.searchParams.set('query', 'subscription Follow($id: ID!) { lessonEvents(classroomActivityId: $id) { kind at } }');
    target.searchParams.set('variables', JSON.stringify({ id: String(ids.classroomActivity) }));
    socket.write(
      `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${token}\r\n\r\n${pipelined}`,
    );
    await waitFor(() => /\r\n\r\n[0-9a-f]+\r\n:\n\n/.test(received), 'the stream’s head and first comment');
    return { socket, server: await serverSide, received: () => received, closed };
  }

  it('is the stream’s alone: Node’s parser of it is freed, what the client sends next is never read as a request, and it closes with the stream', async () => {
    const started = startedSoFar();
    const opened = await streamConnection(tokens.owner);
    await gateway.waitForLog('subscription started', started + 1);
    expect(opened.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(opened.received()).toMatch(/\r\nconnection: close\r\n/i);
    // Node's HTTP parser of the connection (~6 kB of native memory) is gone: if this fails, Node's own
    // internals changed, and src/http/dedicated-connection.ts no longer frees it.
    expect((opened.server as Socket & { parser?: unknown }).parser).toBeNull();

    // A request sent after it on the same connection is dropped, and the stream goes on.
    opened.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await notifyMany(ids.classroomActivity, 0, 1, 'https://school.test/next');
    await waitFor(() => opened.received().includes('event: next'), 'the event');
    expect(opened.received().match(/HTTP\/1\.1/g)).toHaveLength(1);
    expect((await gateway.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    // The client half-closes it (sends no more): the stream and its subscription end, and so does the connection.
    const ended = gateway.logs().filter((line) => line.msg === 'subscription ended').length;
    opened.socket.end();
    await gateway.waitForLog('subscription ended', ended + 1);
    await opened.closed;
  });

  it('leaves a request pipelined behind the stream’s, in the same packet, unanswered; the stream and the server go on', async () => {
    const started = startedSoFar();
    const opened = await streamConnection(tokens.coteacher, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await gateway.waitForLog('subscription started', started + 1);
    await notifyMany(ids.classroomActivity, 0, 1, 'https://school.test/next');
    await waitFor(() => opened.received().includes('event: next'), 'the event');
    expect(opened.received().match(/HTTP\/1\.1/g)).toHaveLength(1);
    const ended = gateway.logs().filter((line) => line.msg === 'subscription ended').length;
    opened.socket.destroy();
    await gateway.waitForLog('subscription ended', ended + 1);
    expect((await gateway.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('closes once a stream refused as it starts has sent its one result and complete', async () => {
    const opened = await streamConnection(tokens.otherTeacher);
    await opened.closed;
    expect(opened.received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(opened.received()).toContain('"code":"FORBIDDEN"');
    expect(opened.received().endsWith('event: complete\ndata:\n\n\r\n0\r\n\r\n')).toBe(true);
  });
});

describe('keep-alive', () => {
  let quick: ListeningGateway;
  beforeAll(async () => {
    quick = await startListeningGateway({ SUBSCRIPTION_KEEP_ALIVE: '1s' });
    await quick.reset();
  });
  afterAll(() => quick?.close());

  it('sends a comment every SUBSCRIPTION_KEEP_ALIVE while no event comes', async () => {
    const opened = await rawStream(quick.streamUrl, {
      headers: { authorization: `Bearer ${tokens.owner}` },
      variables: { id: String(ids.classroomActivity) },
    });
    streams.push(opened);
    const comments = () => opened.text().split(':\n\n').length - 1;
    // graphql-sse's own first comment, then one a second (its own come every 12 s).
    await waitFor(() => comments() >= 3, 'two keep-alive comments', 5_000);
    expect(opened.events()).toEqual([]);
  });

  it('cuts a stream whose reader takes nothing for a whole SUBSCRIPTION_KEEP_ALIVE, and ends its subscription', async () => {
    // The only stream of this user here: its log lines are told apart by the user.
    const lines = (msg: string) => quick.logs().filter((line) => line.msg === msg && line.userId === ids.coteacher);
    const opened = await rawStream(quick.streamUrl, {
      headers: { authorization: `Bearer ${tokens.coteacher}` },
      query: SLOW,
      variables: { id: String(ids.classroomActivity) },
    });
    streams.push(opened);
    await waitFor(() => lines('subscription started').length === 1, 'subscription started');
    opened.response.pause();
    // Enough to fill the sockets' buffers, sent until the server gives up on the reader.
    for (let from = 0; lines('subscription ended').length === 0 && from < 30_000; from += 100) {
      await notifyMany(ids.classroomActivity, from, 100, LARGE_URL, quick);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await waitFor(() => lines('subscription ended').length === 1, 'subscription ended');
    opened.response.resume();
    await opened.ended;
    expect(opened.events().at(-1)?.event).not.toBe('complete');
  }, 90_000);
});

/** A subscription whose events are as large as a notification allows (LARGE_URL): few fill the sockets' buffers. */
const SLOW = 'subscription Slow($id: ID!) { lessonEvents(classroomActivityId: $id) { at followUpUrl } }';
const LARGE_URL = `https://school.test/${'x'.repeat(7_000)}`;

/** `count` lesson events for one classroom activity, numbered from `from`, sent by the database in one transaction. */
async function notifyMany(classroomActivityId: number, from: number, count: number, followUpUrl: string, on = gateway): Promise<void> {
  await on.database.prisma.$executeRawUnsafe(
    `SELECT pg_notify('lesson_events', json_build_object(
       'kind', 'LOCKED', 'classroomActivityId', $1::int, 'position', i, 'locked', true, 'pinned', false, 'completed', false,
       'followUpUrl', $4::text, 'at', '2026-01-01T00:00:00.' || lpad(i::text, 8, '0') || 'Z')::text)
     FROM generate_series($2::int + 1, $2::int + $3::int) AS i`,
    classroomActivityId,
    from,
    count,
    followUpUrl,
  );
}
