import type { FastifyInstance } from 'fastify';
import { fromHttpStatus, RETRY_AFTER_SECONDS } from './errors.ts';
import { HEALTH_ROUTE, READINESS_ROUTE } from './probes.ts';

// The drain, from SIGTERM until the last in-flight request is answered (src/main.ts): /readyz says so (the
// load balancer stops sending), a request on a kept-alive connection is 503, and every answer closes its connection.

/** Shared between main (which starts the drain) and the app (which answers 503 while it lasts). */
export type Lifecycle = { draining: boolean };

export function registerDrain(app: FastifyInstance, lifecycle: Lifecycle): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!lifecycle.draining) return done();
    reply.header('connection', 'close');
    const route = request.routeOptions.url;
    if (route === HEALTH_ROUTE) return done();
    if (route === READINESS_ROUTE) return void reply.code(503).send({ status: 'draining' });
    reply.code(503).header('retry-after', RETRY_AFTER_SECONDS).send(fromHttpStatus(503, 'The server is shutting down, try again shortly'));
  });
  // An answer finished during the drain closes its connection, so that the server can close.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });
}
