import type { ApolloServer } from '@apollo/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GraphQLSchema, ValidationRule } from 'graphql';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { rethrowUnavailable } from '../db/errors.ts';
import type { Callers } from '../http/authentication.ts';
import type { ModuleSettings, RequestContext } from '../modules/context.ts';
import type { Tracing } from '../telemetry/tracing.ts';
import type { crossSiteMutations } from './csrf.ts';
import type { PublicReads } from './public-reads.ts';
import { createContext } from './request-context.ts';
import { registerGraphqlRoute } from './route.ts';
import { createSubscriptionService } from './subscriptions/service.ts';
import { createServerSentEvents } from './subscriptions/sse.ts';
import { registerWebSocketSubscriptions } from './subscriptions/websocket.ts';
import type { OnOutside, TrustedDocuments } from './trusted-documents.ts';

// The GraphQL face: each request's context, and /graphql over HTTP, WebSocket and (on /graphql/stream)
// Server-Sent Events, subscriptions the same whichever transport carries them (src/graphql/subscriptions/).

export type GraphqlOptions = {
  config: Config;
  database: Database;
  callers: Callers;
  tracing?: Tracing | undefined;
  lessonEvents: ModuleSettings['lessonEvents'];
  /** The public Apollo server and what it was built with (src/plugins/apollo.ts). */
  apollo: ApolloServer<RequestContext>;
  publicSchema: GraphQLSchema;
  validationRules: readonly ValidationRule[];
  trusted: TrustedDocuments | undefined;
  onOutsideTrusted: OnOutside;
  mutations: ReturnType<typeof crossSiteMutations>;
  publicReads: PublicReads | undefined;
};

/** Returns the context builder the REST shim shares, and the live counts the metrics watch. */
export async function registerGraphql(app: FastifyInstance, options: GraphqlOptions) {
  const { config, database, callers, tracing, trusted, onOutsideTrusted } = options;
  const settings: ModuleSettings = { appUrl: config.appUrl, lessonEvents: options.lessonEvents };
  const contextFor = async (request: FastifyRequest) => {
    const { viewer } = await callers.authentication.of(request).catch(rethrowUnavailable);
    return createContext(database, settings, viewer);
  };
  // Subscriptions, the same whichever transport carries them: WebSocket on /graphql, event streams on /graphql/stream.
  const subscriptions = createSubscriptionService({
    schema: options.publicSchema,
    validationRules: options.validationRules,
    database,
    settings,
    connectionsPerCaller: config.subscriptionConnectionsPerToken,
    log: app.log,
    trusted,
    onOutsideTrusted,
    tracing,
  });
  const websocket = await registerWebSocketSubscriptions(app, {
    service: subscriptions,
    authenticator: callers.authenticator,
    corsOrigins: config.corsOrigins,
    config,
    tracing,
  });
  const eventStreams = createServerSentEvents(app, {
    service: subscriptions,
    authentication: callers.authentication,
    corsOrigins: config.corsOrigins,
    keepAliveMs: config.subscriptionKeepAliveMs,
    shutdownSpreadMs: config.shutdownSpreadMs,
  });
  registerGraphqlRoute(app, {
    apollo: options.apollo,
    contextFor: options.mutations.contextFor(contextFor),
    websocket: websocket.handler,
    eventStream: eventStreams.handler,
    playground: config.playground,
    tracing,
    trusted,
    onOutside: onOutsideTrusted,
    publicReads: options.publicReads,
  });
  return { contextFor, live: subscriptions.counts(websocket.connections, eventStreams.connections) };
}
