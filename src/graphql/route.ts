import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { ApolloServer } from '@apollo/server';
import type { WebsocketHandler } from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../modules/context.ts';
import { withPlayground } from '../playground/plugin.ts';
import type { Tracing } from '../telemetry/tracing.ts';
import { withCsrfPrevention } from './csrf.ts';
import { extensionsOf, withoutPersistedQuery } from './persisted-query.ts';
import { withPublicReads, type PublicReads } from './public-reads.ts';
import { markOutside, referenceIn, type OnOutside, type OutsideReason, type TrustedDocuments } from './trusted-documents.ts';

// The /graphql route: a browser's GET gets the playground (when on), an upgrade is a WebSocket for
// subscriptions, and every other request is Apollo's after the CSRF check (csrf.ts), the trusted documents
// and, for a public read, its tag (public-reads.ts). /graphql/stream: subscriptions over Server-Sent Events.

export type GraphqlRouteOptions = {
  apollo: ApolloServer<RequestContext>;
  contextFor: (request: FastifyRequest) => Promise<RequestContext>;
  websocket: WebsocketHandler;
  /** GET and POST /graphql/stream: graphql-sse's event streams (src/graphql/subscriptions/sse.ts). */
  eventStream: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  playground: boolean;
  tracing: Tracing | undefined;
  /** When set, only its documents run (or, in `log` mode, the others are counted): src/graphql/trusted-documents.ts. */
  trusted: TrustedDocuments | undefined;
  /** Told of each operation refused by the trusted documents (those run outside them are told by outsideRunsPlugin). */
  onOutside: OnOutside;
  /** HTTP caching of public reads (src/graphql/public-reads.ts); undefined when PUBLIC_CACHE_MAX_AGE is 0. */
  publicReads: PublicReads | undefined;
};

export function registerGraphqlRoute(
  app: FastifyInstance,
  { apollo, contextFor, websocket, eventStream, playground, tracing, trusted, onOutside, publicReads }: GraphqlRouteOptions,
): void {
  // A request let through outside the trusted documents (log mode): its context is marked, and counted once it runs.
  const outside = new WeakMap<FastifyRequest, OutsideReason>();
  const context = async (request: FastifyRequest) => markOutside(await contextFor(request), outside.get(request));
  const apolloHandler = fastifyApolloHandler(apollo, { context });
  const handler = withPlayground(
    playground,
    withCsrfPrevention(
      withTrustedDocuments(trusted, onOutside, outside, withPublicReads(publicReads, withOperationSpan(tracing, apolloHandler))),
    ),
  );
  // @fastify/websocket takes upgrades on GET routes only.
  app.route({ url: '/graphql', method: 'GET', handler, wsHandler: websocket });
  app.route({ url: '/graphql', method: ['POST', 'OPTIONS'], handler });
  // The stream applies the trusted documents to what it runs itself (src/graphql/subscriptions/sse.ts).
  app.route({ url: '/graphql/stream', method: ['GET', 'POST'], handler: eventStream });
}

/**
 * The listed text in place of what the request named, in a POST's body or a GET's query string (which Apollo
 * reads from the URL); the id or hash that named it is dropped: the list, not the client, vouches for the text.
 */
function runListed(request: FastifyRequest, text: string): void {
  if (request.method !== 'GET') {
    const body = request.body as Record<string, unknown>;
    body.query = text;
    delete body.documentId;
    if (body.extensions !== undefined) body.extensions = withoutPersistedQuery(body.extensions);
    return;
  }
  const url = new URL(request.url, 'http://gateway.invalid');
  url.searchParams.set('query', text);
  url.searchParams.delete('documentId');
  // Extensions that are not JSON are left as sent: Apollo answers them as it would.
  const extensions = extensionsOf(url.searchParams.get('extensions') ?? undefined);
  if (extensions !== undefined) url.searchParams.set('extensions', JSON.stringify(withoutPersistedQuery(extensions)));
  request.raw.url = `${url.pathname}${url.search}`;
}

/** Only trusted documents reach Apollo (src/graphql/trusted-documents.ts); the others are refused with 400, or run and counted. */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument -- as Fastify's own handler types */
function withTrustedDocuments<Handler extends (this: FastifyInstance, request: FastifyRequest<any>, reply: FastifyReply<any>) => unknown>(
  trusted: TrustedDocuments | undefined,
  onOutside: GraphqlRouteOptions['onOutside'],
  outside: WeakMap<FastifyRequest, OutsideReason>,
  handler: Handler,
): Handler {
  if (!trusted) return handler;
  return function (this: FastifyInstance, request: FastifyRequest<any>, reply: FastifyReply<any>) {
    const admitted = trusted.admit(
      referenceIn((request.method === 'GET' ? request.query : request.body) as Record<string, unknown>),
      onOutside,
    );
    if ('refused' in admitted) {
      const { message, extensions } = admitted.refused;
      return reply
        .code(400)
        .type('application/json; charset=utf-8')
        .send({ errors: [{ message, extensions: { code: extensions.code } }] });
    }
    if (admitted.text !== undefined) runListed(request, admitted.text);
    if (admitted.outside) outside.set(request, admitted.outside);
    return handler.call(this, request, reply);
  } as Handler;
}
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument */

/** With tracing on, Apollo's run of each /graphql request in the span of its GraphQL operation (src/telemetry/). */
/* eslint-disable @typescript-eslint/no-explicit-any -- as Fastify's own handler types */
function withOperationSpan<Handler extends (this: FastifyInstance, request: FastifyRequest<any>, reply: FastifyReply<any>) => unknown>(
  tracing: Tracing | undefined,
  handler: Handler,
): Handler {
  if (!tracing) return handler;
  return function (this: FastifyInstance, request: FastifyRequest<any>, reply: FastifyReply<any>) {
    return tracing.graphqlOperation(async () => handler.call(this, request, reply));
  } as Handler;
}
/* eslint-enable @typescript-eslint/no-explicit-any */
