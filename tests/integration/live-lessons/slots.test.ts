import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ids } from '../../kit/fixture.ts';
import { startSessionWebhook, type SessionWebhook } from '../../kit/identity.ts';
import { LESSON_EVENTS, rawStream, startListeningGateway, waitFor, type ListeningGateway, type RawStream } from '../../kit/live.ts';

// Slots given back however a connection ends (docs/contract.md, What a caller is): a socket or stream that
// goes away while its caller is being authenticated takes no slot, so after any opens and drops a caller
// holds exactly as many as it has open (SUBSCRIPTION_CONNECTIONS_PER_TOKEN).

const COOKIE = '_platform_session';
/** Each authentication asks the webhook (nothing remembered), which answers this late: the window a client drops in. */
const WEBHOOK_DELAY_MS = 150;

let webhook: SessionWebhook;
let gateway: ListeningGateway;
const sockets: WebSocket[] = [];
const streams: RawStream[] = [];

beforeAll(async () => {
  webhook = await startSessionWebhook(COOKIE);
  // One user's sessions (one caller): the webhook is asked once at a time per cookie, so each drop has its own.
  for (let i = 0; i <= 5; i++) {
    webhook.answers.set(`socket-session-${i}`, { status: 200, body: { userId: ids.owner }, delayMs: WEBHOOK_DELAY_MS });
    webhook.answers.set(`stream-session-${i}`, { status: 200, body: { userId: ids.coteacher }, delayMs: WEBHOOK_DELAY_MS });
  }
  gateway = await startListeningGateway({
    AUTH_SESSION_WEBHOOK_URL: webhook.url,
    AUTH_SESSION_COOKIE: COOKIE,
    AUTH_SESSION_CACHE_TTL: '0',
    SUBSCRIPTION_CONNECTIONS_PER_TOKEN: '2',
  });
});
afterAll(async () => {
  await gateway?.close();
  await webhook?.close();
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.terminate();
  for (const stream of streams.splice(0)) stream.close();
});

/** A socket with this session cookie on its upgrade, that sends connection_init. */
function socketWithSession(session: string): WebSocket {
  const socket = new WebSocket(gateway.wsUrl, 'graphql-transport-ws', { headers: { cookie: `${COOKIE}=${session}` } });
  sockets.push(socket);
  socket.on('error', () => {});
  socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
  return socket;
}

/** 'ack', or the code the socket was closed with. */
const answerOf = (socket: WebSocket) =>
  new Promise<'ack' | number>((resolve) => {
    socket.on('message', (data: Buffer) => {
      if (JSON.parse(data.toString()).type === 'connection_ack') resolve('ack');
    });
    socket.once('close', (code) => resolve(code));
  });

/** Waits out the webhook's answers to the dropped connections. */
const answersOut = () => new Promise((resolve) => setTimeout(resolve, WEBHOOK_DELAY_MS * 2));

/** How often the webhook has been asked about this session. */
const callsFor = (session: string) => webhook.calls.filter((headers) => headers.cookie === `${COOKIE}=${session}`).length;

/** An event stream asked for as a browser's EventSource does (GET, its cookie, same-origin). */
const streamRequest = { method: 'GET', headers: { cookie: '', 'sec-fetch-site': 'same-origin' } } as const;

describe('slots given back', () => {
  it('a socket dropped during its authentication takes no slot: the caller still opens its two', async () => {
    for (let i = 1; i <= 5; i++) {
      const socket = socketWithSession(`socket-session-${i}`);
      // Asked for the upgrade (the rate limit's), then for connection_init: dropped while that one is out.
      await waitFor(() => callsFor(`socket-session-${i}`) >= 2, 'connection_init authenticating');
      socket.terminate();
    }
    await answersOut();
    expect(await answerOf(socketWithSession('socket-session-0'))).toBe('ack');
    expect(await answerOf(socketWithSession('socket-session-0'))).toBe('ack');
    expect(await answerOf(socketWithSession('socket-session-0'))).toBe(4429);
  });

  it('after sockets dropped at any moment (before, during and after connection_init), the caller holds exactly its open ones', async () => {
    const keeper = socketWithSession('socket-session-0');
    expect(await answerOf(keeper)).toBe('ack');
    // Twelve sockets, each dropped a different while after it was made: some before they open, some while
    // authenticated, some acknowledged (or closed 4429, the keeper and the others holding the two slots).
    await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const socket = socketWithSession('socket-session-0');
        await new Promise((resolve) => setTimeout(resolve, i * 30));
        socket.terminate();
      }),
    );
    await answersOut();
    expect(await answerOf(socketWithSession('socket-session-0'))).toBe('ack');
    expect(await answerOf(socketWithSession('socket-session-0'))).toBe(4429);
  });

  it('a stream dropped during its authentication takes no slot: the caller still opens its two', async () => {
    const target = new URL(gateway.streamUrl);
    target.searchParams.set('query', LESSON_EVENTS);
    target.searchParams.set('variables', JSON.stringify({ id: String(ids.classroomActivity) }));
    for (let i = 1; i <= 5; i++) {
      const request = httpRequest(target, {
        ...streamRequest,
        headers: { ...streamRequest.headers, accept: 'text/event-stream', cookie: `${COOKIE}=stream-session-${i}` },
      });
      request.on('error', () => {});
      request.end();
      await waitFor(() => callsFor(`stream-session-${i}`) >= 1, 'the stream authenticating');
      request.destroy();
    }
    await answersOut();
    const open = async () => {
      const stream = await rawStream(gateway.streamUrl, {
        ...streamRequest,
        headers: { ...streamRequest.headers, cookie: `${COOKIE}=stream-session-0` },
        variables: { id: String(ids.classroomActivity) },
      });
      streams.push(stream);
      return stream.status;
    };
    expect(await open()).toBe(200);
    expect(await open()).toBe(200);
    expect(await open()).toBe(429);
  });
});
