import cors from '@fastify/cors';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { DestinationStream } from 'pino';
import { TOKEN_CHANGES_CHANNEL, TokenCache } from './auth/token-cache.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createContext } from './graphql/request-context.ts';
import { rethrowUnavailable } from './db/errors.ts';
import { withCsrfPrevention } from './graphql/csrf.ts';
import { buildSchema } from './graphql/schema.ts';
import { armorFor, createApollo } from './graphql/server.ts';
import { registerSubscriptions } from './graphql/subscriptions.ts';
import { EventHub } from './core/event-hub.ts';
import { deliverLessonEvents, LESSON_EVENTS_CHANNEL } from './modules/classroom-activities/lesson-events.ts';
import { limitConnections } from './http/connections.ts';
import { registerHardening, noteViewer, type HardeningOptions, type Lifecycle } from './http/hardening.ts';
import { listenForScrapes, type MetricsListener } from './metrics/listener.ts';
import { createMetrics } from './metrics/metrics.ts';
import { playgroundRoutes, withPlayground } from './playground/plugin.ts';
import { answerClientError, fromHttpStatus, httpErrorHandler } from './http/errors.ts';
import { restRoutes } from './rest/plugin.ts';
import { restSchemaExtension } from './rest/schema.ts';
import type { Tracing } from './telemetry/tracing.ts';

export type AppOptions = {
  config: Config;
  database: Database;
  /** main's shutdown sets `draining` (503 from then on); tests may pass their own. */
  lifecycle?: Lifecycle;
  /** Where log lines go (default stdout): tests read them. */
  logStream?: DestinationStream;
  rateLimitStore?: HardeningOptions['rateLimitStore'];
  /** Set by main when an OTLP endpoint is (src/telemetry/); absent, nothing of tracing is installed. */
  tracing?: Tracing | undefined;
};

/** Assembles Fastify, Apollo, the REST shim and the health routes. No logic of its own. */
export async function buildApp({ config, database, lifecycle = { draining: false }, logStream, rateLimitStore, tracing }: AppOptions) {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Never a token: the Authorization header is not among the logged fields, and is redacted if it were.
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      ...(logStream ? { stream: logStream } : {}),
      // Each line written while a traced request runs carries its trace id (and span id).
      ...(tracing ? { mixin: tracing.logFields } : {}),
    },
    // One line per request instead, written at its end (src/http/hardening.ts).
    logController: new LogController({ disableRequestLogging: true }),
    // While draining, our own hook answers 503 in the `meta` envelope (Fastify's would not).
    return503OnClosing: false,
    bodyLimit: config.bodyLimit,
    // Slow and idle clients may not hold connections (README, Configuration). Node checks the headers and
    // request timeouts only every connectionsCheckingInterval (30 s by default), so once a second here. A
    // connection that never sends a byte meets the headers timeout too (tests/hardening/timeouts.test.ts).
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs),
    },
    // Fastify sets these on the server it creates, over the above (its defaults: no request timeout, 72 s).
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    requestIdHeader: 'x-request-id',
    // Requests too slow, too large in their headers, or not HTTP: answered in the envelope, then closed.
    clientErrorHandler: answerClientError,
    // A path whose percent-encoding is not UTF-8 is refused before routing: in the REST envelope too.
    frameworkErrors: (error, _request, reply) => {
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
  });
  const { admission } = await registerHardening(app, { config, lifecycle, ...(rateLimitStore ? { rateLimitStore } : {}) });
  // Prometheus metrics, only with METRICS_PORT, served on that port alone (src/metrics/).
  const metrics = config.metricsPort === undefined ? undefined : createMetrics();
  metrics?.observeHttp(app);

  // One Apollo server per schema, with the same limits and plugins: the public one for /graphql, and the
  // REST shim's, whose schema adds the mutations only the shim runs (src/rest/schema.ts).
  const apolloFor = (schema: GraphQLSchema, api: 'graphql' | 'rest') =>
    createApollo({
      schema,
      playground: config.playground,
      logger: app.log,
      plugins: [...(metrics ? [metrics.apolloPlugin(api)] : []), ...(tracing ? [tracing.apolloPlugin] : [])],
    });
  const publicSchema = buildSchema();
  const apollo = apolloFor(publicSchema, 'graphql');
  const restApollo = apolloFor(buildSchema(restSchemaExtension), 'rest');
  await Promise.all([apollo.start(), restApollo.start()]);
  app.addHook('onClose', () => Promise.all([apollo.stop(), restApollo.stop()]));

  // Live lessons: this instance hears every committed event through the database and fans it out to its
  // own subscribers (src/modules/classroom-activities/lesson-events.ts).
  const lessonEvents = new EventHub();
  const stopListening = await database.listen(
    LESSON_EVENTS_CHANNEL,
    deliverLessonEvents(lessonEvents),
    (state, { error, retryInMs }) =>
      state === 'lost'
        ? app.log.warn({ err: error, retryInMs }, 'lesson events: lost the listening connection, reconnecting')
        : app.log.info('lesson events: listening'),
  );
  app.addHook('onClose', () => stopListening());

  // Tokens verified a moment ago, evicted the moment the database says one changed, on the same listening
  // connection; emptied whenever that connection drops or comes back (src/auth/token-cache.ts).
  const tokenCache = new TokenCache(config.tokenCacheTtlMs);
  const stopHearingTokens = await database.listen(
    TOKEN_CHANGES_CHANNEL,
    (payload) => tokenCache.changed(payload),
    (state) => tokenCache.listenerState(state),
  );
  app.addHook('onClose', () => stopHearingTokens());

  const settings = { appUrl: config.appUrl, lessonEvents };
  const live = await registerSubscriptions(app, {
    schema: publicSchema,
    validationRules: armorFor().validationRules,
    database,
    settings,
    tokenCache,
    config,
    tracing,
  });
  const contextFor = async (request: FastifyRequest) => {
    const context = await createContext(database, settings, request.headers.authorization, tokenCache).catch(rethrowUnavailable);
    noteViewer(request, context.viewer);
    return context;
  };

  // A browser's GET /graphql gets the playground (when on); every other request is Apollo's, once it passed
  // the CSRF check (src/graphql/csrf.ts).
  const apolloHandler = fastifyApolloHandler(apollo, { context: contextFor });
  const graphqlHandler = withPlayground(config.playground, withCsrfPrevention(withOperationSpan(tracing, apolloHandler)));
  // GET also takes the WebSocket upgrades (subscriptions); @fastify/websocket allows them on GET only.
  app.route({ url: '/graphql', method: 'GET', handler: graphqlHandler, wsHandler: live.handler });
  app.route({ url: '/graphql', method: ['POST', 'OPTIONS'], handler: graphqlHandler });
  await app.register(playgroundRoutes, { enabled: config.playground });
  await app.register(restRoutes, { prefix: '/api/v1', apollo: restApollo, contextFor, tracing });

  app.get('/', (_request, reply) => reply.redirect('/graphql'));
  app.get('/healthz', () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send(fromHttpStatus(404, 'Not found')));

  if (metrics) {
    metrics.watch({ pool: () => database.poolStats(), admission, live: live.counts });
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
