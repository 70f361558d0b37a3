import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromHttpStatus, RETRY_AFTER_SECONDS } from './errors.ts';
import { HEALTH_ROUTE, READINESS_ROUTE } from './probes.ts';

// A deploy's lifecycle, from SIGTERM to exit (src/main.ts; docs/operations.md, A rolling deploy): leaving (/readyz
// 503, all else served, so that the balancer stops sending first), then draining (requests 503, stream requests
// cut, every answer closes its connection), the transports closing their sockets and streams spread over time.

/**
 * The phases, read by /readyz, the drain hook and both transports; main moves them on, tests may set them.
 * serving (both false) → leaving (SIGTERM; SHUTDOWN_DELAY long) → draining (until the last connection is gone).
 */
export type Lifecycle = { leaving?: boolean; draining: boolean };

/** What a browser's EventSource sends: it gives up for good on an HTTP error, and reconnects when the connection drops. */
const asksForEventStream = (accept: string | undefined) => (accept ?? '').toLowerCase().includes('text/event-stream');

export function registerDrain(app: FastifyInstance, lifecycle: Lifecycle): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!lifecycle.draining && !lifecycle.leaving) return done();
    reply.header('connection', 'close');
    const route = request.routeOptions.url;
    if (route === READINESS_ROUTE) return void reply.code(503).send({ status: 'draining' });
    if (!lifecycle.draining || route === HEALTH_ROUTE) return done();
    // An event stream asked for while draining: its connection is ended, so that the client reconnects (to
    // another instance, behind a balancer) rather than give up on a 503 (docs/operations.md, A rolling deploy).
    if (asksForEventStream(request.headers.accept)) return endUnanswered(request, reply);
    reply.code(503).header('retry-after', RETRY_AFTER_SECONDS).send(fromHttpStatus(503, 'The server is shutting down, try again shortly'));
  });
  // An answer finished while leaving or draining closes its connection, so that few are left when the server closes.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.draining || lifecycle.leaving) reply.header('connection', 'close');
    done(null, payload);
  });
}

/** Ends a request's connection without an answer: what a draining instance does to a stream request (docs/operations.md, A rolling deploy). */
export function endUnanswered(request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  request.raw.socket.destroy();
}

/**
 * Calls `close` on each item, spread evenly over `spreadMs` (the first at once, the last before its end), so
 * that the clients of a draining instance do not all reconnect in the same instant (SHUTDOWN_SPREAD).
 * Resolves once the last has been called.
 */
export async function spreadOver<T>(items: readonly T[], spreadMs: number, close: (item: T) => void): Promise<void> {
  const began = Date.now();
  const count = items.length;
  for (let next = 0; next < count;) {
    const elapsed = Date.now() - began;
    // Every item whose time has come, then a wait until the next one's.
    while (next < count && (spreadMs * next) / count <= elapsed) close(items[next++]!);
    if (next < count) await new Promise((resolve) => setTimeout(resolve, (spreadMs * next) / count - elapsed));
  }
}
