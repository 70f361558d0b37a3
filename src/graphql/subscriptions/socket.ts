import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CloseCode, makeServer, type Server, type ServerOptions } from 'graphql-ws';
import type { WebSocket } from 'ws';

// graphql-ws's server on one `ws` socket (what graphql-ws/use/@fastify/websocket does), with the bounds of
// docs/operations.md, Live lessons across instances: what waits to be sent to the socket is bounded, the keep-alive counts only a pong to its own
// ping, and a subscription id is handed to graphql-ws again only once its previous subscription has ended.

/** Closes a socket whose client does not read what is sent to it (WebSocket's "policy violation"). */
export const SEND_BUFFER_FULL = 1008;

/**
 * What each message waiting to be sent counts for beside its bytes: its buffers, write request and promise
 * (a flood of tiny pongs would otherwise hold many times the bound).
 */
export const MESSAGE_OVERHEAD_BYTES = 1024;

/** How long a socket closed for its full send buffer has to read its close before it is dropped. */
export const DROP_AFTER_MS = 2_000;

export type SocketLimits = {
  /** SUBSCRIPTION_KEEP_ALIVE: a ping this often; a socket whose pong has not come by the next is dropped. */
  keepAliveMs: number;
  /** SUBSCRIPTION_SEND_BUFFER: bytes that may wait to be sent to the socket. */
  sendBufferBytes: number;
};

/** What every connection's context carries (graphql-ws's `ctx.extra`), beside what the hooks add. */
export type SocketExtra = {
  socket: WebSocket;
  /** Subscribe messages graphql-ws is still handling (set up, running or winding down): what SUBSCRIPTIONS_PER_CONNECTION counts. */
  running(): number;
};

/**
 * graphql-ws's server with `options`, and the function that serves it on each upgraded socket until it
 * closes: `extra` becomes that connection's `ctx.extra` (with `socket` and `running` set here).
 */
export function makeSocketHandler<P extends Record<string, unknown> | undefined, E extends SocketExtra>(
  options: ServerOptions<P, E>,
  limits: SocketLimits,
): (socket: WebSocket, extra: Omit<E, keyof SocketExtra>, log: FastifyBaseLogger) => void {
  const server = makeServer<P, E>(options);
  return (socket, extra, log) => serveSocket(server, socket, extra, limits, log);
}

/**
 * Serves graphql-ws's protocol on `socket` until it closes. `extra` becomes the connection's `ctx.extra`
 * (with `socket` and `running` set here).
 */
function serveSocket<E extends SocketExtra>(
  server: Server<E>,
  socket: WebSocket,
  extra: Omit<E, keyof SocketExtra>,
  limits: SocketLimits,
  log: FastifyBaseLogger,
): void {
  new ServedSocket(server, socket, extra, limits, log);
}

/** A subscribe message graphql-ws is handling: whether its client has completed it, and the subscribe that waits for its end. */
type Handling = { completed: boolean; next?: string };

/** The type and id of a message, when it has them (graphql-ws parses and checks it again). */
function peek(data: string): { type?: unknown; id?: unknown } {
  try {
    const message: unknown = JSON.parse(data);
    return message && typeof message === 'object' ? message : {};
  } catch {
    return {};
  }
}

/** Keep-alive pings carry a random number below this, new for each ping (a small integer: nothing is allocated while a pong is awaited). */
const PING_NUMBER_RANGE = 2 ** 30;
// Handed to the timers with their socket, so that no function is made per socket.
const terminate = (socket: WebSocket): void => socket.terminate();
const pingOrDrop = (served: { keepAlive(): void }): void => served.keepAlive();

/**
 * One socket served: graphql-ws's view of it (`protocol`, `send`, `close`, `onMessage`), the bound on what
 * waits to be sent, the keep-alive, and the subscription ids handed to graphql-ws. A class, so that a
 * socket holds its state and the listeners `ws` is given, not a closure for each piece of work.
 *
 * The ids: graphql-ws forgets an id at its client's `complete` while that subscription may still be being
 * set up, and then lets the id run twice, one of them out of the client's reach. Here a subscribe for an id
 * is handed over only once graphql-ws is done with the previous one of that id: a client's complete makes
 * the next one wait for that end (a second subscribe while one waits, or any while the id runs, is the
 * protocol's 4409), a complete drops one that waits.
 */
class ServedSocket<E extends SocketExtra> {
  readonly protocol: string;
  private readonly sendBufferBytes: number;
  /** Messages handed to `ws` whose write has not completed. */
  private waiting = 0;
  private dropTimer: NodeJS.Timeout | undefined;
  private readonly keepAliveTimer: NodeJS.Timeout;
  /** The number the last keep-alive ping carried, until a pong echoes it. */
  private awaitedPing: number | undefined;
  private handle: ((data: string) => Promise<void>) | undefined;
  private failed = false;
  private open = true;
  private readonly handling = new Map<string, Handling>();
  private readonly messageFailed: (error: unknown) => void;
  private readonly closed: (code: number, reason: string) => Promise<void>;

  constructor(
    server: Server<E>,
    private readonly socket: WebSocket,
    extra: Omit<E, keyof SocketExtra>,
    limits: SocketLimits,
    private readonly log: FastifyBaseLogger,
  ) {
    this.protocol = socket.protocol;
    this.sendBufferBytes = limits.sendBufferBytes;
    this.messageFailed = this.fail.bind(this);
    // The protocol's own pings (frames) are answered here, under the same bound (the server's autoPong is off).
    socket.on('ping', this.answerPing.bind(this));
    socket.on('pong', this.pongHeard.bind(this));
    this.keepAliveTimer = setInterval(pingOrDrop, limits.keepAliveMs, this);
    this.closed = server.opened(this, { ...extra, socket, running: this.running.bind(this) } as E);
    // `ws` emits 'close' once.
    socket.on('close', this.onClose.bind(this));
  }

  /** graphql-ws's: a write that fails means the socket is gone; its close ends the subscriptions. */
  send(data: string): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.socket.readyState !== this.socket.OPEN) return resolve();
      this.socket.send(data, () => {
        this.written();
        resolve();
      });
      this.sending();
    });
  }

  /** graphql-ws's. */
  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  /** graphql-ws's: `handle` is given each message as sorted out by onData. */
  onMessage(handle: (data: string) => Promise<void>): void {
    this.handle = handle;
    this.socket.on('message', this.onData.bind(this));
  }

  /** Subscribe messages graphql-ws is still handling (SocketExtra's `running`). */
  running(): number {
    return this.handling.size;
  }

  /** A ping carrying a new random number; a socket that has not echoed the last one by the next is dropped. */
  keepAlive(): void {
    if (this.awaitedPing !== undefined) return this.socket.terminate();
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.awaitedPing = randomInt(PING_NUMBER_RANGE);
    this.socket.ping(String(this.awaitedPing));
  }

  private pongHeard(data: Buffer): void {
    if (this.awaitedPing !== undefined && String(data) === String(this.awaitedPing)) this.awaitedPing = undefined;
  }

  private answerPing(data: Buffer): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.pong(data, undefined, () => this.written());
    this.sending();
  }

  private written(): void {
    this.waiting -= 1;
  }

  /** Counts a message handed to `ws`; past the bound, the socket is closed with 1008 and dropped shortly after, whether or not its client reads the close. */
  private sending(): void {
    this.waiting += 1;
    const { socket } = this;
    const queued = socket.bufferedAmount + this.waiting * MESSAGE_OVERHEAD_BYTES;
    if (socket.readyState !== socket.OPEN || queued <= this.sendBufferBytes) return;
    this.log.warn({ bufferedBytes: socket.bufferedAmount, messages: this.waiting }, 'websocket closed: its send buffer is full');
    socket.close(SEND_BUFFER_FULL, 'The client does not read what is sent to it');
    this.dropTimer = setTimeout(terminate, DROP_AFTER_MS, socket);
  }

  private onData(raw: Buffer): void {
    const data = String(raw);
    const { type, id } = peek(data);
    const entry = typeof id === 'string' ? this.handling.get(id) : undefined;
    if (type === 'subscribe' && typeof id === 'string') {
      if (!entry) return this.start(id, data);
      if (!entry.completed || entry.next !== undefined)
        return this.socket.close(CloseCode.SubscriberAlreadyExists, `Subscriber for ${id} already exists`);
      entry.next = data;
      return;
    }
    if (type === 'complete' && entry) {
      if (entry.next !== undefined) return void (entry.next = undefined);
      entry.completed = true;
    }
    void this.deliver(data);
  }

  private start(id: string, data: string): void {
    const entry: Handling = { completed: false };
    this.handling.set(id, entry);
    // Settles when graphql-ws is done with the subscription (deliver's promise never rejects).
    void this.deliver(data).then(() => this.ended(id, entry));
  }

  /** graphql-ws is done with the subscription `id`: a subscribe of that id that waited is handed over. */
  private ended(id: string, entry: Handling): void {
    this.handling.delete(id);
    if (entry.next !== undefined && this.open) this.start(id, entry.next);
  }

  private deliver(data: string): Promise<void> {
    return this.handle!(data).then(undefined, this.messageFailed);
  }

  /** graphql-ws throws for a message a client must not send (`next`, `error`…): closed as it would be. */
  private fail(error: unknown): void {
    if (!this.failed)
      this.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'websocket closed: the message failed');
    this.failed = true;
    this.socket.close(CloseCode.InternalServerError, 'Internal server error');
  }

  private onClose(code: number, reason: Buffer): void {
    clearInterval(this.keepAliveTimer);
    clearTimeout(this.dropTimer);
    this.open = false;
    this.closed(code, String(reason)).catch((error: unknown) =>
      this.log.error({ err: error }, 'websocket: error while closing its subscriptions'),
    );
  }
}
