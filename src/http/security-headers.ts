import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

// helmet's security headers on every answer, and a Content-Security-Policy by kind of answer: an API's JSON
// may not run, load or be framed; the HTML pages the gateway serves (playground, docs) load from this host only.

const apiCsp = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const pageCsp =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

/**
 * helmet's headers (its defaults, CSP left to the hook below, same-site resources). They depend on these
 * options alone, never on the request: computed once, rather than by running helmet's middleware for
 * every request as @fastify/helmet does (docs/performance.md).
 */
function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let done = false;
  helmet({ contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: 'same-site' } })(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    () => (done = true),
  );
  if (!done || Object.keys(headers).length === 0) throw new Error('helmet did not give its headers synchronously');
  return headers;
}

export function registerSecurityHeaders(app: FastifyInstance): void {
  // The API's policy from the start: an answer written straight to the response (an event stream) has it too.
  const headers = { ...helmetHeaders(), 'content-security-policy': apiCsp };
  // Hooks that do their work at once take `done` rather than being async: no promise per request.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) reply.header('content-security-policy', pageCsp);
    done(null, payload);
  });
}
