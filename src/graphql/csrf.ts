import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { OperationTypeNode } from 'graphql';
import { crossSite } from '../auth/viewer.ts';
import { ambientFromForeignOrigin, mayCarryAmbientCredentials, originTrusted } from '../http/ambient-credentials.ts';
import type { RequestAuthentication } from '../http/authentication.ts';
import type { RequestContext } from '../modules/context.ts';

// CSRF prevention on /graphql and /graphql/stream, in place of Apollo's, which refuses the GET queries
// standard clients send: a GET without credentials a browser adds by itself is served; any other request
// must show a browser preflighted it, else 400 BAD_REQUEST. Why that is enough: SECURITY.md, CSRF.

/** Content types a page may send cross-origin without a preflight (a form, or fetch with no-cors). */
const simpleContentTypes = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);
const preflightHeaders = ['apollo-require-preflight', 'x-apollo-operation-name'] as const;

/** Whether a browser would have preflighted this request before sending it cross-origin. */
function preflighted(headers: IncomingHttpHeaders): boolean {
  const contentType = headers['content-type'];
  if (contentType !== undefined && !simpleContentTypes.has(contentType.split(';')[0]!.trim().toLowerCase())) return true;
  return preflightHeaders.some((name) => {
    const value = headers[name];
    return typeof value === 'string' && value !== '';
  });
}

/** Whether /graphql must refuse this request as a possible cross-site request forgery. */
export function refusedAsCsrf(request: Pick<FastifyRequest, 'method' | 'headers'>): boolean {
  // GET runs queries only (Apollo answers 405 to a mutation sent by GET).
  if (request.method === 'GET' && !mayCarryAmbientCredentials(request.headers)) return false;
  return !preflighted(request.headers);
}

/**
 * The same question on /graphql/stream, where a browser's EventSource sends a GET with cookies and can add
 * no header: that GET goes on when the browser itself names the page's origin as the gateway's own or one
 * of CORS_ORIGINS (`Origin`), or says it is the gateway's own (`Sec-Fetch-Site: same-origin`); no page can
 * set either header (docs/identity.md, Event streams).
 */
export function refusedAsCsrfOnStream(
  request: Pick<FastifyRequest, 'method' | 'headers' | 'protocol' | 'host'>,
  corsOrigins: readonly string[],
): boolean {
  if (!refusedAsCsrf(request)) return false;
  if (request.method !== 'GET') return true;
  if (request.headers.origin !== undefined) return !originTrusted(request, corsOrigins);
  return request.headers['sec-fetch-site'] !== 'same-origin';
}

const refusal = {
  errors: [
    {
      message:
        'This request was refused as a possible cross-site request forgery: a browser may send it with credentials of its own ' +
        '(HTTP Basic, a cookie). Send it with a Content-Type such as application/json, or a non-empty apollo-require-preflight ' +
        'header, or sign in with Authorization: Bearer',
      extensions: { code: 'BAD_REQUEST' },
    },
  ],
};

/** Answers a request refused as a possible CSRF. */
export const refuseAsCsrf = (reply: FastifyReply) => reply.code(400).type('application/json; charset=utf-8').send(refusal);

/** Marks the context of a /graphql request that an ambient credential signed in from a foreign Origin (kept by Apollo's copy of it). */
const fromForeignOrigin = Symbol('ambient credential from a foreign Origin');
type MarkedContext = RequestContext & { [fromForeignOrigin]?: true };

/**
 * The ambient-credential rule on /graphql's mutations (src/http/ambient-credentials.ts): a mutation whose
 * caller a cookie or HTTP Basic signed in from a foreign Origin runs with a viewer the guards refuse (FORBIDDEN
 * after the 404 and 401 checks), so nothing changes; its queries read as the caller. `contextFor` marks such
 * a request's context; the plugin, once the operation is known, marks its viewer.
 */
export function crossSiteMutations(authentication: RequestAuthentication, corsOrigins: readonly string[]) {
  const plugin: ApolloServerPlugin<MarkedContext> = {
    requestDidStart: async () => ({
      async didResolveOperation({ operation, contextValue }) {
        if (operation?.operation === OperationTypeNode.MUTATION && contextValue[fromForeignOrigin])
          contextValue.viewer = crossSite(contextValue.viewer);
      },
    }),
  };
  const contextFor =
    (context: (request: FastifyRequest) => Promise<RequestContext>) =>
    async (request: FastifyRequest): Promise<RequestContext> => {
      const contextValue: MarkedContext = await context(request);
      const known = authentication.known(request);
      if (known && ambientFromForeignOrigin(request, known, corsOrigins)) contextValue[fromForeignOrigin] = true;
      return contextValue;
    };
  return { plugin, contextFor };
}

/** The /graphql handler behind the check. */
/* eslint-disable @typescript-eslint/no-explicit-any -- any route's handler, whatever its generics (the Apollo handler's are its own). */
export function withCsrfPrevention<
  Handler extends (this: FastifyInstance, request: FastifyRequest<any>, reply: FastifyReply<any>) => unknown,
>(graphql: Handler): Handler {
  return function (this: FastifyInstance, request: FastifyRequest<any>, reply: FastifyReply<any>) {
    if (refusedAsCsrf(request)) return refuseAsCsrf(reply as FastifyReply);
    return graphql.call(this, request, reply);
  } as Handler;
}
/* eslint-enable @typescript-eslint/no-explicit-any */
