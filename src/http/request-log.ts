import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { RequestAuthentication } from './authentication.ts';

// One log line per request, after its answer: who, what, how it went. Never a header, a body or a URL's
// query: the route pattern and the operation name say what was asked.

/** The GraphQL operation's name, from the request body (only the name is read). */
function operationName(request: FastifyRequest): string | undefined {
  const body = request.body as { operationName?: unknown; query?: unknown } | undefined;
  if (!body || typeof body !== 'object') return undefined;
  if (typeof body.operationName === 'string' && /^[_A-Za-z]\w{0,99}$/.test(body.operationName)) return body.operationName;
  if (typeof body.query !== 'string') return undefined;
  const match = /^\s*(?:#[^\n]*\n\s*)*(?:query|mutation|subscription)\s+([_A-Za-z]\w{0,99})/.exec(body.query.slice(0, 2_000));
  return match?.[1] ?? 'anonymous';
}

export function registerRequestLog(app: FastifyInstance, authentication: RequestAuthentication): void {
  app.addHook('onResponse', (request, reply, done) => {
    // Below LOG_LEVEL=info the line is not written: nor is it built (the operation's name is a regex over the body).
    if (!(request.log as Logger).isLevelEnabled('info')) return done();
    const route = request.routeOptions.url ?? null;
    const fields: Record<string, unknown> = {
      method: request.method,
      route,
      statusCode: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
    };
    // Who the caller turned out to be, or which check their credential failed (never the credential).
    const known = authentication.known(request);
    if (known?.viewer.kind === 'user') fields.userId = known.viewer.user.id;
    if (known?.method) fields.auth = known.reason ? { method: known.method, failed: known.reason } : { method: known.method };
    if ((route === '/graphql' || route === '/graphql/stream') && request.method === 'POST') fields.operation = operationName(request);
    request.log.info(fields, 'request');
    done();
  });
}
