import { randomBytes } from 'node:crypto';
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
  let dropTimer: NodeJS.Timeout | undefined;
  /** Messages handed to `ws` whose write has not completed. */
  let waiting = 0;
  const written = () => (waiting -= 1);
  /** Counts a message handed to `ws`; past the bound, the socket is closed with 1008 and dropped shortly after, whether or not its client reads the close. */
  const sending = () => {
    waiting += 1;
    const queued = socket.bufferedAmount + waiting * MESSAGE_OVERHEAD_BYTES;
    if (socket.readyState !== socket.OPEN || queued <= limits.sendBufferBytes) return;
    log.warn({ bufferedBytes: socket.bufferedAmount, messages: waiting }, 'websocket closed: its send buffer is full');
    socket.close(SEND_BUFFER_FULL, 'The client does not read what is sent to it');
    dropTimer = setTimeout(() => socket.terminate(), DROP_AFTER_MS);
  };

  // The protocol's own pings (frames) are answered here, under the same bound (the server's autoPong is off).
  socket.on('ping', (data: Buffer) => {
    if (socket.readyState !== socket.OPEN) return;
    socket.pong(data, undefined, written);
    sending();
  });
  const keepAlive = keepAliveOf(socket, limits.keepAliveMs);
  const messages = subscriptionIds(socket, log);

  const closed = server.opened(
    {
      protocol: socket.protocol,
      // A write that fails means the socket is gone; its close ends the subscriptions.
      send: (data) =>
        new Promise<void>((resolve) => {
          if (socket.readyState !== socket.OPEN) return resolve();
          socket.send(data, () => {
            written();
            resolve();
          });
          sending();
        }),
      close: (code, reason) => socket.close(code, reason),
      onMessage: (cb) => messages.onMessage(cb),
    },
    { ...extra, socket, running: messages.running } as E,
  );
  socket.once('close', (code: number, reason: Buffer) => {
    clearInterval(keepAlive);
    clearTimeout(dropTimer);
    messages.closed();
    closed(code, String(reason)).catch((error: unknown) => log.error({ err: error }, 'websocket: error while closing its subscriptions'));
  });
}

/** A ping every `intervalMs` carrying a nonce; a socket that has not answered the last one with the same data by the next is dropped. */
function keepAliveOf(socket: WebSocket, intervalMs: number): NodeJS.Timeout {
  let awaited: Buffer | undefined;
  socket.on('pong', (data: Buffer) => {
    if (awaited?.equals(data)) awaited = undefined;
  });
  return setInterval(() => {
    if (awaited) return socket.terminate();
    if (socket.readyState !== socket.OPEN) return;
    awaited = randomBytes(8);
    socket.ping(awaited);
  }, intervalMs);
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

/**
 * The socket's messages as graphql-ws is handed them. graphql-ws forgets an id at its client's `complete`
 * while that subscription may still be being set up, and then lets the id run twice, one of them out of
 * the client's reach. Here a subscribe for an id is handed over only once graphql-ws is done with the
 * previous one of that id: a client's complete makes the next one wait for that end (a second subscribe
 * while one waits, or any while the id runs, is the protocol's 4409), a complete drops one that waits.
 */
function subscriptionIds(socket: WebSocket, log: FastifyBaseLogger) {
  let handle: ((data: string) => Promise<void>) | undefined;
  let failed = false;
  let open = true;
  const handling = new Map<string, Handling>();
  const deliver = (data: string): Promise<void> =>
    handle!(data).catch((error: unknown) => {
      // graphql-ws throws for a message a client must not send (`next`, `error`…): closed as it would be.
      if (!failed) log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'websocket closed: the message failed');
      failed = true;
      socket.close(CloseCode.InternalServerError, 'Internal server error');
    });
  const start = (id: string, data: string) => {
    const entry: Handling = { completed: false };
    handling.set(id, entry);
    void deliver(data).finally(() => {
      handling.delete(id);
      if (entry.next !== undefined && open) start(id, entry.next);
    });
  };
  const onData = (raw: Buffer) => {
    const data = String(raw);
    const { type, id } = peek(data);
    const entry = typeof id === 'string' ? handling.get(id) : undefined;
    if (type === 'subscribe' && typeof id === 'string') {
      if (!entry) return start(id, data);
      if (!entry.completed || entry.next !== undefined)
        return socket.close(CloseCode.SubscriberAlreadyExists, `Subscriber for ${id} already exists`);
      entry.next = data;
      return;
    }
    if (type === 'complete' && entry) {
      if (entry.next !== undefined) return void (entry.next = undefined);
      entry.completed = true;
    }
    void deliver(data);
  };
  return {
    onMessage(cb: (data: string) => Promise<void>) {
      handle = cb;
      socket.on('message', onData);
    },
    running: () => handling.size,
    closed: () => {
      open = false;
    },
  };
}
