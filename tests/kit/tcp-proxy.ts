import { connect, createServer, type Server, type Socket } from 'node:net';

// A TCP proxy on 127.0.0.1 in front of a database server, for the outages the system tests make: it can
// be cut (every connection dropped) and reopened, and pointed at another server for the next connections.

export type TcpProxy = {
  /** Listens (on the same port as before, when reopened); resolves with the port. */
  start(): Promise<number>;
  /** Drops every connection and stops listening. */
  stop(): Promise<void>;
  /** Where the next connections go (those open stay where they are). */
  retarget(target: URL): void;
  /** `url` with this proxy's address in place of its host (started first). */
  urlThrough(url: string): string;
};

/** A proxy to `target`'s host and port (a postgresql:// URL, or any URL naming them). */
export function tcpProxy(target: URL): TcpProxy {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let to = target;
  return {
    start: () =>
      new Promise<number>((resolve) => {
        server = createServer((client) => {
          const upstream = connect(Number(to.port || 5432), to.hostname);
          for (const socket of [client, upstream]) {
            sockets.add(socket);
            socket.on('close', () => sockets.delete(socket));
            socket.on('error', () => {});
          }
          client.pipe(upstream).pipe(client);
        });
        server.listen(port, '127.0.0.1', () => {
          port = (server!.address() as { port: number }).port;
          resolve(port);
        });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (server) server.close(() => resolve());
        else resolve();
      }),
    retarget: (next) => void (to = next),
    urlThrough: (url) => {
      const through = new URL(url);
      through.host = `127.0.0.1:${port}`;
      return through.toString();
    },
  };
}
