import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

// Connection-level limits: the cap on open connections, and an end, at shutdown, for connections that
// never send a request. The timeouts themselves are options of the server (src/http/server-options.ts); README,
// Configuration, and SECURITY.md list them.

export function limitConnections(
  app: FastifyInstance,
  config: Pick<Config, 'maxConnections' | 'headersTimeoutMs' | 'shutdownSpreadMs'>,
): void {
  const server = app.server;

  // Connections beyond the cap are closed as soon as they are accepted (net.Server's 'drop'): logged at
  // most once a minute, with how many since the last line.
  server.maxConnections = config.maxConnections;
  let refused = 0;
  let warnedAt = -Infinity;
  server.on('drop', () => {
    refused++;
    if (Date.now() - warnedAt < 60_000) return;
    app.log.warn({ refused, maxConnections: config.maxConnections }, 'connections refused: MAX_CONNECTIONS are open');
    warnedAt = Date.now();
    refused = 0;
  });

  // server.close() stops Node's checks of the headers and request timeouts, and closes only the
  // connections idle between requests: one that has not sent a (whole) request head would hold the drain
  // until its grace ends (src/main.ts). From the drain's start it has the headers timeout to send one
  // (answered 503), then it is closed. A connection whose request is in flight is left to finish.
  // (A socket handed to an 'upgrade' listener counts as one without a request: its owner closes it first,
  // within SHUTDOWN_SPREAD, so the wait is that much longer.)
  const sockets = new Set<Socket>();
  const lastResponse = new WeakMap<Socket, ServerResponse>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (request: { socket: Socket }, response: ServerResponse) => lastResponse.set(request.socket, response));
  app.addHook('preClose', async () => {
    const timer = setTimeout(() => {
      for (const socket of sockets) if (lastResponse.get(socket)?.writableFinished !== false) socket.destroy();
    }, config.headersTimeoutMs + config.shutdownSpreadMs).unref();
    server.once('close', () => clearTimeout(timer));
  });
}
