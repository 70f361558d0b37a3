import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import { startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';

// A socket's life (docs/contract.md, Live lessons): the init time limit, keep-alive pings, the message
// size limit, the send buffer, the rate limit on upgrades, a subscriber that stops reading, and the log
// lines. The listening connection's failures: tests/system/live-lessons/instances.test.ts.

const PROTOCOL = 'graphql-transport-ws';

let gateway: ListeningGateway;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  gateway = await startListeningGateway({
    SUBSCRIPTION_INIT_TIMEOUT: '1s',
    SUBSCRIPTION_KEEP_ALIVE: '1s',
    SUBSCRIPTION_SEND_BUFFER: '256kb',
    RATE_LIMIT_MAX: '40',
  });
  await gateway.reset();
});
afterAll(() => gateway?.close());
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
});

/** A raw socket speaking the protocol, so that a test can misbehave as a client library never would. */
function rawSocket(options: WebSocket.ClientOptions = {}): WebSocket {
  const socket = new WebSocket(gateway.wsUrl, PROTOCOL, options);
  sockets.push(socket);
  return socket;
}

async function initialized(socket: WebSocket, token: string): Promise<void> {
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
  const [data] = (await once(socket, 'message')) as [Buffer];
  expect(JSON.parse(String(data))).toEqual({ type: 'connection_ack' });
}

const closeCode = async (socket: WebSocket) => ((await once(socket, 'close')) as [number])[0];

/** `promise`, or a failure naming the time limit. */
const withinMs = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms))]);

const logged = (message: string) => gateway.logs().some((line) => line.msg === message);

describe('a socket’s life', () => {
  it('closes a socket that sends no connection_init within SUBSCRIPTION_INIT_TIMEOUT with 4408', async () => {
    const socket = rawSocket();
    await once(socket, 'open');
    const started = Date.now();
    expect(await closeCode(socket)).toBe(4408);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('pings every SUBSCRIPTION_KEEP_ALIVE, and ends a socket that stops answering', async () => {
    const answering = rawSocket();
    let pings = 0;
    answering.on('ping', () => (pings += 1));
    await initialized(answering, tokens.owner);
    await waitFor(() => pings >= 2, 'two pings', 5_000);
    expect(answering.readyState).toBe(WebSocket.OPEN);

    // A peer that has gone away answers no ping: the server drops it after one more interval.
    const silent = rawSocket({ autoPong: false });
    await initialized(silent, tokens.coteacher);
    expect(await closeCode(silent)).toBe(1006);
  });

  it('takes only a pong that answers its own ping as life: unrequested pongs keep no socket open', async () => {
    const socket = rawSocket({ autoPong: false });
    await initialized(socket, tokens.coteacher);
    const pongs = setInterval(() => socket.readyState === WebSocket.OPEN && socket.pong(), 200);
    try {
      expect(await withinMs(closeCode(socket), 6_000)).toBe(1006);
    } finally {
      clearInterval(pongs);
    }
  });

  it('closes a socket that does not read once more than SUBSCRIPTION_SEND_BUFFER waits for it: 1008, and it is dropped', async () => {
    const socket = rawSocket();
    await initialized(socket, tokens.owner);
    const closed = closeCode(socket);
    // Stop reading, and ask for pongs (each echoes its ping's payload) until the server gives up on it.
    socket.pause();
    const ping = JSON.stringify({ type: 'ping', payload: { pad: 'p'.repeat(60_000) } });
    for (let sent = 0; sent < 2_000 && !logged('websocket closed: its send buffer is full'); sent += 1) {
      await new Promise<void>((resolve, reject) => socket.send(ping, (error) => (error ? reject(error) : resolve())));
      if (sent % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(logged('websocket closed: its send buffer is full')).toBe(true);
    // What was queued, then the close: a client that reads again gets 1008.
    socket.resume();
    expect(await withinMs(closed, 6_000)).toBe(1008);
  });

  it('closes a socket that sends a message over 64 KB with 1009', async () => {
    const socket = rawSocket();
    await initialized(socket, tokens.owner);
    socket.send(JSON.stringify({ type: 'subscribe', id: '1', payload: { query: `# ${'x'.repeat(70_000)}\n{ __typename }` } }));
    expect(await closeCode(socket)).toBe(1009);
    await gateway.waitForLog('websocket closed: the client broke the protocol');
  });

  it('counts each upgrade against the caller’s rate limit: the one over it is answered 429 and never upgraded', async () => {
    const token = tokens.student;
    const answers: number[] = [];
    for (let i = 0; i < 45 && !answers.includes(429); i += 1) {
      const socket = new WebSocket(gateway.wsUrl, PROTOCOL, { headers: { authorization: `Bearer ${token}` } });
      socket.on('error', () => {}); // the refused upgrade's, expected
      sockets.push(socket);
      const status = await new Promise<number>((resolve) => {
        socket.once('upgrade', (response: IncomingMessage) => resolve(response.statusCode ?? 0));
        socket.once('unexpected-response', (_request, response: IncomingMessage) => resolve(response.statusCode ?? 0));
      });
      answers.push(status);
      socket.terminate();
    }
    expect(answers.at(-1)).toBe(429);
    expect(answers.slice(0, -1).every((status) => status === 101)).toBe(true);
    // The same budget as HTTP: this token's next HTTP request is refused too.
    expect((await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`, { token })).status).toBe(429);
  });

  it('ends a subscriber that has stopped reading once it falls 256 events behind, and logs start and end without a token', async () => {
    const socket = rawSocket();
    await initialized(socket, tokens.owner);
    const messages: any[] = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(String(data))));
    const started = gateway.logs().filter((line) => line.msg === 'subscription started').length;
    const ended = gateway.logs().filter((line) => line.msg === 'subscription ended').length;
    socket.send(
      JSON.stringify({
        type: 'subscribe',
        id: 'slow',
        payload: {
          query: 'subscription ($id: ID!) { lessonEvents(classroomActivityId: $id) { at } }',
          variables: { id: String(ids.classroomActivity) },
        },
      }),
    );
    await gateway.waitForLog('subscription started', started + 1);

    // Stop reading: the kernel's buffers fill, the server's sends wait, its queue for this subscriber grows.
    socket.pause();
    await notifyMany(ids.classroomActivity, 60_000);
    await gateway.waitForLog('subscription ended', ended + 1);
    socket.resume();
    await waitFor(() => messages.some((message) => message.type === 'complete'), 'complete');

    // What it did receive came in order and stops well short of everything sent; the socket stays open.
    const received = messages.filter((message) => message.type === 'next').map((message) => message.payload.data.lessonEvents.at as string);
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan(60_000);
    expect(received).toEqual([...received].sort());
    expect(socket.readyState).toBe(WebSocket.OPEN);

    const line = gateway.logs().filter((entry) => entry.msg === 'subscription started')[started];
    expect(line, JSON.stringify(line)).toMatchObject({ userId: ids.owner, classroomActivityId: String(ids.classroomActivity) });
    expect(JSON.stringify(gateway.logs())).not.toContain(tokens.owner);
  });
});

/** `count` lesson events for one classroom activity, sent by the database in one transaction. */
async function notifyMany(classroomActivityId: number, count: number): Promise<void> {
  await gateway.database.prisma.$executeRawUnsafe(
    `SELECT pg_notify('lesson_events', json_build_object(
       'kind', 'LOCKED', 'classroomActivityId', $1::int, 'position', i, 'locked', true, 'pinned', false, 'completed', false,
       'followUpUrl', NULL, 'at', '2026-01-01T00:00:00.' || lpad(i::text, 8, '0') || 'Z')::text)
     FROM generate_series(1, $2::int) AS i`,
    classroomActivityId,
    count,
  );
}
