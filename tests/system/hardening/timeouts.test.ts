import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../kit/gateway.ts';

// Slow and idle clients may not hold connections: over real sockets, a client that sends its headers a
// byte at a time, one that sends nothing, one that sends its body a byte at a time and an idle kept-alive
// connection are each closed by the server within their configured time; connections beyond
// MAX_CONNECTIONS are closed at once while the earlier ones keep working. Those refused before any route
// (too slow, not HTTP, headers too large) are answered in the error envelope first. Node checks the
// headers and request timeouts once a second (src/app.ts), hence the margins.

const CHECK_INTERVAL_MS = 1_000;
// Generous: two cores shared with other test runs.
const SLACK_MS = 2_000;

type Client = { socket: Socket; opened: number; closed: Promise<number>; received: () => string };

const clients: Client[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.socket.destroy();
});

/** A raw connection to the gateway; `closed` resolves with the ms from connect to the server closing it. */
async function open(port: number): Promise<Client> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const opened = Date.now();
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {}); // a reset is a way of being closed
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  const client = { socket, opened, closed, received: () => received };
  clients.push(client);
  return client;
}

/** How long until the server closes `client`, or null if it is still open after `ms`. */
const closedWithin = (client: Client, ms: number) =>
  Promise.race([client.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);

/** Writes `text` one byte every `everyMs` until the socket is closed. */
function drip(client: Client, text: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (client.socket.destroyed || at >= text.length) return clearInterval(timer);
    client.socket.write(text[at++]!);
  }, everyMs);
  void client.closed.then(() => clearInterval(timer));
}

/** The answer the server wrote before closing: its status line and its JSON body. */
function answerOf(client: Client): { statusLine: string; body: unknown } {
  const [head = '', body = ''] = client.received().split('\r\n\r\n');
  return { statusLine: head.split('\r\n')[0]!, body: body === '' ? undefined : JSON.parse(body) };
}

/** Sends one keep-alive GET /healthz on `client` and waits for its whole answer. */
async function healthz(client: Client): Promise<string> {
  const start = client.received().length;
  client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const answer = client.received().slice(start);
    if (answer.includes('{"status":"ok"}')) return answer;
    if (client.socket.destroyed) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return client.received().slice(start);
}

/** A request too slow to arrive, in the envelope every error body has (docs/contract.md, Errors). */
const tooSlow = {
  meta: { status: 'bad_request', message: 'The request did not arrive in time (HEADERS_TIMEOUT, REQUEST_TIMEOUT)', errors: null },
};

describe('timeouts (HEADERS_TIMEOUT=2s, REQUEST_TIMEOUT=4s, KEEP_ALIVE_TIMEOUT=1s)', () => {
  let gateway: Gateway;
  let port: number;
  beforeAll(async () => {
    // The admission queue's wait must be shorter than the request timeout (src/config.ts).
    gateway = await startGateway({ HEADERS_TIMEOUT: '2s', REQUEST_TIMEOUT: '4s', KEEP_ALIVE_TIMEOUT: '1s', ADMISSION_QUEUE_TIMEOUT: '1s' });
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.app.server.address() as { port: number }).port;
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('closes a connection whose headers arrive a byte every 300 ms once HEADERS_TIMEOUT has passed', async () => {
    const client = await open(port);
    drip(client, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(1_000)}`, 300);
    const after = await closedWithin(client, 2_000 + CHECK_INTERVAL_MS + SLACK_MS);
    expect(after, 'still open').not.toBeNull();
    expect(after!).toBeGreaterThanOrEqual(1_900);
    expect(answerOf(client)).toEqual({ statusLine: 'HTTP/1.1 408 Request Timeout', body: tooSlow });
  }, 20_000);

  it('closes a connection that never sends a byte once HEADERS_TIMEOUT has passed', async () => {
    const client = await open(port);
    const after = await closedWithin(client, 2_000 + CHECK_INTERVAL_MS + SLACK_MS);
    expect(after, 'still open').not.toBeNull();
    expect(after!).toBeGreaterThanOrEqual(1_900);
  }, 20_000);

  it('closes a request whose body arrives a byte every 300 ms once REQUEST_TIMEOUT has passed', async () => {
    const client = await open(port);
    client.socket.write('POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
    drip(client, `{"query":"{ __typename }","x":"${'a'.repeat(1_000)}`, 300);
    const after = await closedWithin(client, 4_000 + CHECK_INTERVAL_MS + SLACK_MS);
    expect(after, 'still open').not.toBeNull();
    expect(after!).toBeGreaterThanOrEqual(3_900);
    expect(answerOf(client)).toEqual({ statusLine: 'HTTP/1.1 408 Request Timeout', body: tooSlow });
  }, 20_000);

  it('answers a request that is not HTTP with 400, and one whose headers are too large with 431, in the envelope, and closes it', async () => {
    const garbled = await open(port);
    garbled.socket.write('HELLO / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await closedWithin(garbled, 5_000), 'still open').not.toBeNull();
    expect(answerOf(garbled)).toEqual({
      statusLine: 'HTTP/1.1 400 Bad Request',
      body: { meta: { status: 'bad_request', message: 'The request is not valid HTTP', errors: null } },
    });

    const oversized = await open(port);
    oversized.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(await closedWithin(oversized, 5_000), 'still open').not.toBeNull();
    expect(answerOf(oversized)).toEqual({
      statusLine: 'HTTP/1.1 431 Request Header Fields Too Large',
      body: { meta: { status: 'bad_request', message: 'The request headers are larger than 16384 bytes', errors: null } },
    });
  }, 20_000);

  it('keeps a connection alive between requests, and closes it KEEP_ALIVE_TIMEOUT after the last answer', async () => {
    const client = await open(port);
    const first = await healthz(client);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first).toMatch(/keep-alive: timeout=1\r\n/i);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await healthz(client)).toMatch(/^HTTP\/1\.1 200 /); // the same connection, reused
    const answered = Date.now();
    // Node closes it a second after the advertised timeout, so that a client reusing it just in time is not reset.
    const after = await closedWithin(client, 1_000 + 1_000 + SLACK_MS);
    expect(after, 'still open').not.toBeNull();
    expect(Date.now() - answered).toBeGreaterThanOrEqual(900);
  }, 20_000);

  it('does not make a shutdown wait past HEADERS_TIMEOUT for connections that never sent a request', async () => {
    const idle = await Promise.all([open(port), open(port), open(port)]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const began = Date.now();
    const closing = gateway.app.close();
    expect(
      await Promise.race([
        closing.then(() => 'closed'),
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000 + CHECK_INTERVAL_MS + SLACK_MS)),
      ]),
    ).toBe('closed');
    expect(Date.now() - began).toBeLessThan(2_000 + CHECK_INTERVAL_MS + SLACK_MS);
    for (const client of idle) expect(await closedWithin(client, 100)).not.toBeNull();
  }, 20_000);
});

describe('MAX_CONNECTIONS=3', () => {
  let gateway: Gateway;
  let port: number;
  const warnings: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) warnings.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  beforeAll(async () => {
    gateway = await startGateway({ MAX_CONNECTIONS: '3', LOG_LEVEL: 'warn' }, { logStream });
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.app.server.address() as { port: number }).port;
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('closes connections beyond the cap at once, while the earlier ones keep working', async () => {
    const held = [await open(port), await open(port), await open(port)];
    for (const client of held) expect(await healthz(client)).toMatch(/^HTTP\/1\.1 200 /);

    // The kernel accepts the connection; the server closes it as soon as it sees it, unanswered.
    const extra = await open(port);
    extra.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const after = await closedWithin(extra, 2_000);
    expect(after, 'the connection over the cap is still open').not.toBeNull();
    expect(extra.received()).toBe('');
    const refusals = warnings.filter((line) => line.msg === 'connections refused: MAX_CONNECTIONS are open');
    expect(refusals).toEqual([expect.objectContaining({ level: 40, refused: 1, maxConnections: 3 })]);

    for (const client of held) expect(await healthz(client)).toMatch(/^HTTP\/1\.1 200 /);

    // A place freed is taken again.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await healthz(await open(port))).toMatch(/^HTTP\/1\.1 200 /);
  }, 30_000);
});
