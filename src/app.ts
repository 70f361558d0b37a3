import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import cors from '@fastify/cors';
import Fastify, { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { parse, type GraphQLSchema } from 'graphql';
import type { DestinationStream } from 'pino';
import { listenForTokenChanges, TokenCache } from './auth/token-cache.ts';
import { createAuthenticator } from './auth/authenticator.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { logReplicaChanges } from './db/replicas.ts';
import { rethrowUnavailable } from './db/errors.ts';
import { crossSiteMutations } from './graphql/csrf.ts';
import { createContext } from './graphql/request-context.ts';
import { replicaReadsPlugin } from './graphql/replica-reads.ts';
import { registerGraphqlRoute } from './graphql/route.ts';
import { buildSchema } from './graphql/schema.ts';
import { armorFor } from './graphql/limits.ts';
import { createApollo } from './graphql/server.ts';
import { isPublicOperation, PublicDocuments } from './graphql/public-documents.ts';
import { catalogueChangesPlugin, publicReadsPlugin, releaseOf, type PublicReads } from './graphql/public-reads.ts';
import { outsideRunsPlugin, trustedDocumentsFor, type OnOutside, type TrustedDocuments } from './graphql/trusted-documents.ts';
import { createSubscriptionService } from './graphql/subscriptions/service.ts';
import { createServerSentEvents } from './graphql/subscriptions/sse.ts';
import { registerWebSocketSubscriptions } from './graphql/subscriptions/websocket.ts';
import { authenticationPerRequest } from './http/authentication.ts';
import { limitConnections } from './http/connections.ts';
import type { Lifecycle } from './http/drain.ts';
import { CatalogueVersion } from './http/catalogue-version.ts';
import { answerClientError, fromHttpStatus, httpErrorHandler } from './http/errors.ts';
import { registerHardening } from './http/hardening.ts';
import { probeRoutes } from './http/probes.ts';
import { PublicCache } from './http/public-cache.ts';
import type { RateLimitStore } from './http/rate-limit.ts';
import { listenForScrapes, type MetricsListener } from './metrics/listener.ts';
import { createMetrics } from './metrics/metrics.ts';
import { MAX_UID_LENGTH } from './modules/activities/activity.input.ts';
import { listenForCatalogueChanges, readCatalogueVersion } from './modules/activities/catalogue-version.ts';
import { lessonEventHub, listenForLessonEvents, pruneLessonEvents } from './modules/classroom-activities/lesson-events.ts';
import { playgroundRoutes } from './playground/plugin.ts';
import { restRoutes } from './rest/plugin.ts';
import { buildRestSchema } from './rest/schema.ts';
import type { Tracing } from './telemetry/tracing.ts';

// The composition root: Fastify with its limits, the hardening every request meets, the faces (/graphql
// over HTTP, WebSocket and Server-Sent Events, the REST shim, the playground), the probes and the metrics.

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
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Never a credential: the Authorization and Cookie headers are not among the logged fields, and redacted if they were.
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      ...(logStream ? { stream: logStream } : {}),
      // Each line written while a traced request runs carries its trace id (and span id).
      ...(tracing ? { mixin: tracing.logFields } : {}),
    },
    // One line per request instead, written at its end (src/http/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    // While draining, our own hook answers 503 in the `meta` envelope (Fastify's would not).
    return503OnClosing: false,
    bodyLimit: config.bodyLimit,
    // Slow and idle clients may not hold connections (docs/operations.md, Connections and timeouts). Node checks the headers and
    // request timeouts only every connectionsCheckingInterval (30 s by default), so once a second here.
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs),
    },
    // Fastify sets these on the server it creates, over the above (its defaults: no request timeout, 72 s).
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    requestIdHeader: 'x-request-id',
    // Every uid the data model allows reaches its route; a longer path parameter names no row, and
    // frameworkErrors below answers it 404 (SPEC §14).
    routerOptions: { maxParamLength: MAX_UID_LENGTH },
    // Requests too slow, too large in their headers, or not HTTP: answered in the envelope, then closed.
    clientErrorHandler: answerClientError,
    // A path whose percent-encoding is not UTF-8 is refused before routing: in the envelope too.
    frameworkErrors: (error, _request, reply) => {
      // A path parameter too long for any row: not found, and its message (which quotes the URL) not sent.
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return void (reply as FastifyReply).code(404).send(fromHttpStatus(404, ''));
      const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
      void (reply as FastifyReply)
        .code(status)
        .send(fromHttpStatus(status, status === 400 ? 'The URL is not valid: its percent-encoding is not UTF-8' : error.message));
    },
  });
  // First of the hooks, so that a request refused by a later one (429, 503) has its route on its span too.
  if (tracing)
    app.addHook('onRequest', (request, _reply, done) => {
      tracing.nameHttpSpan(request);
      done();
    });
  limitConnections(app, config);
  // Set first: a route takes the error handler in force when it is declared (a 429 on /graphql needs it).
  app.setErrorHandler(httpErrorHandler(config.bodyLimit));
  // The lessons client calls PUT routes cross-origin: @fastify/cors allows only GET, HEAD and POST by default.
  await app.register(cors, {
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    // A preflight's answer is kept by the browser this long, instead of being asked again before each call.
    maxAge: config.corsMaxAgeSeconds,
  });
  // Prometheus metrics, only with METRICS_PORT, served on that port alone (src/metrics/).
  const metrics = config.metricsPort === undefined ? undefined : createMetrics();
  // Who is calling: one authenticator for every face, asked once per request (src/auth/authenticator.ts).
  const tokenCache = new TokenCache(config.tokenCacheTtlMs);
  const authenticator = createAuthenticator({
    identity: config.identity,
    read: database.read,
    tokenCache,
    ...(metrics ? { onOutcome: metrics.countAuthentication } : {}),
  });
  const authentication = authenticationPerRequest(authenticator);
  // A /graphql mutation an ambient credential signed in from a foreign Origin is refused (src/graphql/csrf.ts).
  const mutations = crossSiteMutations(authentication, config.corsOrigins);
  const admission = await registerHardening(app, { config, lifecycle, authentication, rateLimitStore });
  metrics?.observeHttp(app);

  // One Apollo server per schema, with the same limits and plugins: the public one for /graphql, and the
  // REST shim's, whose schema takes the routes' body inputs as given (src/rest/schema.ts).
  const apolloFor = (schema: GraphQLSchema, api: 'graphql' | 'rest', trusted?: TrustedDocuments, publicReads?: PublicReads) =>
    createApollo({
      schema,
      trusted,
      responseLimit: config.responseLimit,
      playground: config.playground,
      logger: app.log,
      plugins: [
        ...(metrics ? [metrics.apolloPlugin(api)] : []),
        ...(tracing ? [tracing.apolloPlugin] : []),
        // /graphql's answers: public reads tagged, every other private (the REST shim sets its own).
        ...(api === 'graphql' ? [publicReadsPlugin(publicReads), mutations.plugin as ApolloServerPlugin<BaseContext>] : []),
        // In log mode, an operation outside the trusted documents is counted once it runs (src/graphql/trusted-documents.ts).
        ...(api === 'graphql' && trusted ? [outsideRunsPlugin(onOutsideTrusted)] : []),
        // After a mutation here, the next public read does not trust the version held in memory (public-reads.ts).
        ...(cache ? [catalogueChangesPlugin(catalogue)] : []),
        // Queries on a replica that has what they need, and each caller's writes known to every instance (replica-reads.ts).
        ...(database.replicas
          ? [replicaReadsPlugin({ replicas: database.replicas, catalogueVersion: cache && (() => catalogue.vouchedFor()) })]
          : []),
      ],
    });
  const publicSchema = buildSchema({ subgraph: config.subgraph });
  const restSchema = buildRestSchema();
  // HTTP caching of public reads (docs/operations.md, HTTP caching), unless PUBLIC_CACHE_MAX_AGE is 0: tags
  // from the catalogue's version, which this instance hears move on the database's listening connection.
  const catalogue = new CatalogueVersion(() => readCatalogueVersion(database.read));
  const cache =
    config.publicCacheMaxAgeMs > 0
      ? new PublicCache({
          maxAgeSeconds: config.publicCacheMaxAgeMs / 1_000,
          catalogue,
          presentsCredential: (headers) => authenticator.presentsCredential(headers),
          readsCookies: authenticator.readsCookies,
          release: releaseOf([publicSchema, restSchema]),
        })
      : undefined;
  const publicReads = cache && { cache, documents: new PublicDocuments() };
  const validationRules = armorFor().validationRules;
  // The operations the first-party clients ship, read at start: a bad manifest stops the start.
  const trusted = trustedDocumentsFor(config, publicSchema, validationRules);
  const onOutsideTrusted: OnOutside = (outcome, reason) => {
    metrics?.countOutsideTrusted(outcome, reason);
    if (outcome === 'ran') app.log.warn({ reason }, 'an operation outside the trusted documents ran (TRUSTED_DOCUMENTS_MODE=log)');
  };
  const apollo = apolloFor(publicSchema, 'graphql', trusted, publicReads);
  const restApollo = apolloFor(restSchema, 'rest');
  await Promise.all([apollo.start(), restApollo.start()]);
  app.addHook('onClose', () => Promise.all([apollo.stop(), restApollo.stop()]));

  // This instance hears every committed lesson event, token change and catalogue change on the database's one
  // listening connection, and fans them out to its subscribers, its token cache and its public reads' tags.
  const replicas = database.replicas;
  if (replicas) logReplicaChanges(replicas, app.log);
  const lessonEvents = lessonEventHub(database, replicas && ((classroomActivityId: number) => replicas.delivered(classroomActivityId)));
  const stopHearingLessons = await listenForLessonEvents(database, lessonEvents, app.log);
  const stopPruningLessons = pruneLessonEvents(database, config.lessonEventsRetentionMs, app.log);
  const stopHearingTokens = await listenForTokenChanges(database, tokenCache);
  const stopHearingCatalogue = cache ? await listenForCatalogueChanges(database, catalogue) : async () => {};
  app.addHook('onClose', async () => {
    await stopPruningLessons();
    await stopHearingLessons();
    await stopHearingTokens();
    await stopHearingCatalogue();
  });

  const settings = { appUrl: config.appUrl, lessonEvents };
  const contextFor = async (request: FastifyRequest) => {
    const { viewer } = await authentication.of(request).catch(rethrowUnavailable);
    return createContext(database, settings, viewer);
  };
  // Subscriptions, the same whichever transport carries them: WebSocket on /graphql, event streams on /graphql/stream.
  const subscriptions = createSubscriptionService({
    schema: publicSchema,
    validationRules,
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
    authenticator,
    corsOrigins: config.corsOrigins,
    config,
    tracing,
  });
  const eventStreams = createServerSentEvents(app, {
    service: subscriptions,
    authentication,
    corsOrigins: config.corsOrigins,
    keepAliveMs: config.subscriptionKeepAliveMs,
    shutdownSpreadMs: config.shutdownSpreadMs,
  });
  registerGraphqlRoute(app, {
    apollo,
    contextFor: mutations.contextFor(contextFor),
    websocket: websocket.handler,
    eventStream: eventStreams.handler,
    playground: config.playground,
    tracing,
    trusted,
    onOutside: onOutsideTrusted,
    publicReads,
  });
  await app.register(playgroundRoutes, { enabled: config.playground });
  await app.register(restRoutes, {
    prefix: '/api/v1',
    apollo: restApollo,
    contextFor,
    authentication,
    corsOrigins: config.corsOrigins,
    tracing,
    publicReads: cache && { cache, isPublic: (operation: string) => isPublicOperation(restSchema, parse(operation)) },
  });
  await app.register(probeRoutes, { database });
  app.get('/', (_request, reply) => reply.redirect('/graphql'));
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(fromHttpStatus(404, 'Not found')));

  if (metrics) {
    metrics.watch({
      pool: () => database.poolStats(),
      replicas: database.replicas,
      admission,
      live: subscriptions.counts(websocket.connections, eventStreams.connections),
    });
    // Up with the app (before it listens, so a port in use stops the start), down with it.
    let listener: MetricsListener | undefined;
    app.addHook('onReady', async () => {
      listener = await listenForScrapes(metrics.registry, config);
      app.log.info({ url: listener.url }, 'metrics: serving GET /metrics');
    });
    app.addHook('onClose', async () => listener?.close());
  }

  return app;
}
