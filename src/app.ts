import Fastify from 'fastify';
import { parse } from 'graphql';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { isPublicOperation } from './graphql/public-documents.ts';
import { registerGraphql } from './graphql/plugin.ts';
import { callersFor } from './http/authentication.ts';
import type { Lifecycle } from './http/drain.ts';
import { registerEdge } from './http/edge.ts';
import { fromHttpStatus } from './http/errors.ts';
import { probeRoutes } from './http/probes.ts';
import type { RateLimitStore } from './http/rate-limit.ts';
import { serverOptions } from './http/server-options.ts';
import { createMetrics } from './metrics/metrics.ts';
import { serveMetrics } from './metrics/plugin.ts';
import { MAX_UID_LENGTH } from './modules/activities/activity.input.ts';
import { playgroundRoutes } from './playground/plugin.ts';
import { startApolloServers } from './plugins/apollo.ts';
import { hearChanges } from './plugins/listening.ts';
import { restRoutes } from './rest/plugin.ts';
import type { Tracing } from './telemetry/tracing.ts';

// The composition root: each part registers itself, in this order (their hooks run in it, and close in its
// reverse). Explicit registration, no directory scan: scripts/build.mjs bundles the app (docs/decisions.md).

export type AppOptions = {
  config: Config;
  database: Database;
  /** main's shutdown moves it on (src/http/drain.ts: leaving, then draining); tests may pass their own. */
  lifecycle?: Lifecycle;
  /** Where log lines go (default stdout): tests read them. */
  logStream?: DestinationStream;
  rateLimitStore?: RateLimitStore;
  /** Set by main when an OTLP endpoint is (src/telemetry/); absent, nothing of tracing is installed. */
  tracing?: Tracing | undefined;
};

export async function buildApp({ config, database, lifecycle = { draining: false }, logStream, rateLimitStore, tracing }: AppOptions) {
  const app = Fastify(serverOptions(config, { logStream, tracing, maxParamLength: MAX_UID_LENGTH }));
  // Prometheus metrics, only with METRICS_PORT, served on that port alone (src/metrics/).
  const metrics = config.metricsPort === undefined ? undefined : createMetrics();
  // Who is calling: one authenticator for every face, asked once per request (src/auth/authenticator.ts).
  const callers = callersFor(config, database.read, metrics?.countAuthentication);
  // Span names, connection cap, error handler, CORS, then the hardening every request meets (src/http/).
  const admission = await registerEdge(app, { config, lifecycle, authentication: callers.authentication, rateLimitStore, tracing });
  metrics?.observeHttp(app);
  // The Apollo servers of /graphql and of the REST shim, with the public-read tags and trusted documents they share.
  const servers = await startApolloServers(app, { config, database, callers, metrics, tracing });
  // Lesson events, token and catalogue changes heard on the database's listening connection.
  const lessonEvents = await hearChanges(app, { config, database, tokenCache: callers.tokenCache, ...servers });
  // /graphql over HTTP, WebSocket and Server-Sent Events.
  const graphql = await registerGraphql(app, { config, database, callers, tracing, lessonEvents, ...servers });
  await app.register(playgroundRoutes, { enabled: config.playground });
  // The REST shim maps /api/v1 onto the same resolvers (src/rest/).
  const { cache, restSchema } = servers;
  await app.register(restRoutes, {
    prefix: '/api/v1',
    apollo: servers.restApollo,
    contextFor: graphql.contextFor,
    authentication: callers.authentication,
    corsOrigins: config.corsOrigins,
    tracing,
    publicReads: cache && { cache, isPublic: (operation: string) => isPublicOperation(restSchema, parse(operation)) },
  });
  await app.register(probeRoutes, { database });
  app.get('/', (_request, reply) => reply.redirect('/graphql'));
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(fromHttpStatus(404, 'Not found')));
  if (metrics)
    serveMetrics(app, metrics, config, { pool: () => database.poolStats(), replicas: database.replicas, admission, live: graphql.live });
  return app;
}
