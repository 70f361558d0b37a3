import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { ApolloServer } from '@apollo/server';
import type { WebsocketHandler } from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLContext } from '../modules/context.ts';
import { withPlayground } from '../playground/plugin.ts';
import type { Tracing } from '../telemetry/tracing.ts';
import { withCsrfPrevention } from './csrf.ts';

// The /graphql route: a browser's GET gets the playground (when on), an upgrade is a WebSocket for
// subscriptions, and every other request is Apollo's once it passed the CSRF check (src/graphql/csrf.ts).

export type GraphqlRouteOptions = {
  apollo: ApolloServer<GraphQLContext>;
  contextFor: (request: FastifyRequest) => Promise<GraphQLContext>;
  websocket: WebsocketHandler;
  playground: boolean;
  tracing: Tracing | undefined;
};

export function registerGraphqlRoute(
  app: FastifyInstance,
  { apollo, contextFor, websocket, playground, tracing }: GraphqlRouteOptions,
): void {
  const apolloHandler = fastifyApolloHandler(apollo, { context: contextFor });
  const handler = withPlayground(playground, withCsrfPrevention(withOperationSpan(tracing, apolloHandler)));
  // @fastify/websocket takes upgrades on GET routes only.
  app.route({ url: '/graphql', method: 'GET', handler, wsHandler: websocket });
  app.route({ url: '/graphql', method: ['POST', 'OPTIONS'], handler });
}

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
