import { connect, createServer, type Server, type Socket } from 'node:net';

// A TCP proxy on 127.0.0.1 in front of a database server, for the outages the system tests make: it can
// be cut (every connection dropped) and reopened, made to go silent (connections stay open, nothing
// passes either way) and to speak again, and pointed at another server for the next connections.

export type TcpProxy = {
  /** Listens (on the same port as before, when reopened); resolves with the port. */
  start(): Promise<number>;
  /** Drops every connection and stops listening. */
  stop(): Promise<void>;
  /**
   * A stalled network: the connections open stay open and new ones are accepted, but no byte passes
   * either way until `speak()` (what was sent meanwhile waits, as in a TCP buffer).
   */
  silence(): void;
  /** Ends `silence()`: what waited is delivered; a connection its client closed meanwhile is dropped. */
  speak(): void;
  /** Where the next connections go (those open stay where they are). */
  retarget(target: URL): void;
  /** `url` with this proxy's address in place of its host (started first). */
  urlThrough(url: string): string;
};

type Pair = { client: Socket; upstream: Socket | undefined };

/** A proxy to `target`'s host and port (a postgresql:// URL, or any URL naming them). */
export function tcpProxy(target: URL): TcpProxy {
  const sockets = new Set<Socket>();
  const pairs = new Set<Pair>();
  let server: Server | undefined;
  let port = 0;
  let to = target;
  let silent = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const join = (pair: Pair) => {
    if (!pair.upstream) {
      pair.upstream = connect(Number(to.port || 5432), to.hostname);
      track(pair.upstream);
      pair.upstream.on('close', () => pair.client.destroy());
    }
    pair.client.pipe(pair.upstream).pipe(pair.client);
  };
  const part = (pair: Pair) => {
    pair.client.unpipe();
    pair.upstream?.unpipe();
    pair.client.pause();
    pair.upstream?.pause();
  };
  return {
    start: () =>
      new Promise<number>((resolve) => {
        server = createServer((client) => {
          const pair: Pair = { client, upstream: undefined };
          pairs.add(pair);
          track(client);
          client.on('close', () => {
            pairs.delete(pair);
            if (!silent) pair.upstream?.destroy();
          });
          if (silent) client.pause();
          else join(pair);
        });
        server.listen(port, '127.0.0.1', () => {
          port = (server!.address() as { port: number }).port;
          resolve(port);
        });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        silent = false;
        pairs.clear();
        for (const socket of sockets) socket.destroy();
        if (server) server.close(() => resolve());
        else resolve();
      }),
    silence: () => {
      silent = true;
      for (const pair of pairs) part(pair);
    },
    speak: () => {
      silent = false;
      for (const socket of sockets) {
        // A client that left while the network was silent: its server side goes too, unheard.
        const pair = [...pairs].find((candidate) => candidate.upstream === socket);
        if (!pair && ![...pairs].some((candidate) => candidate.client === socket)) socket.destroy();
      }
      for (const pair of pairs) join(pair);
    },
    retarget: (next) => void (to = next),
    urlThrough: (url) => {
      const through = new URL(url);
      through.host = `127.0.0.1:${port}`;
      return through.toString();
    },
  };
}
