import { createRequire } from 'node:module';
import type { Context, Span, SpanOptions, Tracer, TracerProvider } from '@opentelemetry/api';
import { prismaServer, type Server } from '../db/replicas.ts';
import { PROBE_ROUTES } from '../http/probes.ts';
import type { Tracing, TracedOperation } from './tracing.ts';

// The OpenTelemetry SDK for Node, configured by the OTEL_* variables alone (README, Tracing). Every
// OpenTelemetry package is imported here, dynamically: main calls this only when an OTLP endpoint is set,
// so that without one none of them is loaded (the bundle keeps packages external: scripts/build.mjs).

export async function startTracing(): Promise<Tracing> {
  const otel = await loadOpenTelemetry();
  const { context, trace } = otel.api;
  const sdk = startSdk(otel);
  const database: { server?: Server } = {};
  instrumentPrisma(otel, () => prismaServer.getStore() ?? database.server);
  const spans = spanHelpers(otel);

  return {
    logFields: (): Record<string, string> => {
      const span = trace.getSpan(context.active());
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { traceId, spanId };
    },

    nameHttpSpan: (request) => {
      const route = request.routeOptions.url;
      const metadata = otel.core.getRPCMetadata(context.active());
      // The instrumentation sets http.route and names the span `METHOD route` when the response ends.
      if (route !== undefined && metadata?.type === otel.core.RPCType.HTTP) metadata.route = route;
    },

    ...operationSpans(otel, spans),

    span: (name, run) => spans.within(spans.tracer.startSpan(name, { kind: otel.api.SpanKind.INTERNAL }), context.active(), run),

    sqlStatement: (text, run, server) => spans.within(statementSpan(otel, spans.tracer, text, server), context.active(), run),

    databaseServer: (server) => void (database.server = server),

    shutdown: () => sdk.shutdown(),
  };
}

/** Every OpenTelemetry package the gateway uses, loaded only now. */
async function loadOpenTelemetry() {
  const [api, core, resources, { NodeSDK }, { HttpInstrumentation }, { PrismaInstrumentation }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@prisma/instrumentation'),
  ]);
  return { api, core, resources, NodeSDK, HttpInstrumentation, PrismaInstrumentation };
}

type OpenTelemetry = Awaited<ReturnType<typeof loadOpenTelemetry>>;

/** The SDK, started: traces of incoming HTTP requests (probes aside), nothing else. */
function startSdk({ resources, NodeSDK, HttpInstrumentation }: OpenTelemetry) {
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, read by the SDK's detectors, win over this default.
    resource: resources.defaultResource().merge(resources.resourceFromAttributes({ 'service.name': 'lessons-gateway' })),
    instrumentations: [
      new HttpInstrumentation({
        // The gateway sends no HTTP requests of its own (the exporter's are never traced anyway).
        disableOutgoingRequestInstrumentation: true,
        // Polled every few seconds: a trace each would bury the requests.
        ignoreIncomingRequestHook: (request) => PROBE_ROUTES.has((request.url ?? '').split('?')[0]!),
      }),
    ],
    // Traces only: metrics are Prometheus's (METRICS_PORT), and the logs go to stdout with the trace id.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  // The bundle's imports ran before this, Fastify's `require('node:http')` among them; the HTTP
  // instrumentation patches http.Server's prototype (every server, existing or not) the next time http
  // is required, which is now.
  createRequire(import.meta.url)('node:http');
  return sdk;
}

/**
 * Prisma's own spans: one per operation, one per SQL statement it sends (prisma:client:db_query), and
 * the compilation of each new query shape. Not the serialization of each operation's arguments: a
 * few microseconds each, for a span that costs more than that to record and send.
 */
function instrumentPrisma({ api, PrismaInstrumentation }: OpenTelemetry, server: () => Server | undefined): void {
  const prisma = new PrismaInstrumentation({ enabled: false, ignoreSpanTypes: ['prisma:client:serialize'] });
  prisma.setTracerProvider(withDbSystem(api.trace.getTracerProvider(), api.context, server));
  prisma.enable();
}

type SpanHelpers = ReturnType<typeof spanHelpers>;

/** The gateway's tracer, and how its spans are named, failed and run. */
function spanHelpers({ api }: OpenTelemetry) {
  const { context, trace, SpanStatusCode } = api;
  const failed = (span: Span, code: string) => span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  return {
    tracer: trace.getTracer('lessons-gateway'),
    nameOperation: (span: Span, { name, type }: TracedOperation) => {
      span.updateName(name ? `${type} ${name}` : type);
      span.setAttribute('graphql.operation.type', type);
      if (name) span.setAttribute('graphql.operation.name', name);
    },
    failed,
    /** Runs `run` with `span` active, ending it after (an exception marks it failed; its message is not kept: it may hold data). */
    within: async <T>(span: Span, parent: Context, run: () => Promise<T>): Promise<T> => {
      try {
        return await context.with(trace.setSpan(parent, span), run);
      } catch (error) {
        failed(span, (error as Error)?.name ?? 'Error');
        throw error;
      } finally {
        span.end();
      }
    },
  };
}

/** A GraphQL operation's span, opened around it and named by Apollo's plugin once its document is parsed. */
function operationSpans({ api }: OpenTelemetry, spans: SpanHelpers): Pick<Tracing, 'graphqlOperation' | 'apolloPlugin'> {
  const { context, SpanKind } = api;
  const { tracer, nameOperation, failed, within } = spans;
  const operationSpanKey = api.createContextKey('lessons-gateway: the GraphQL operation span');
  return {
    graphqlOperation: (run, operation) => {
      const span = tracer.startSpan('graphql', { kind: SpanKind.INTERNAL });
      if (operation) nameOperation(span, operation);
      return within(span, context.active().setValue(operationSpanKey, span), async () => {
        const result = await run();
        // graphql-js answers a refused subscription with an ExecutionResult rather than a stream.
        const errors = (result as { errors?: readonly { extensions?: { code?: unknown } }[] } | null)?.errors;
        if (operation && errors?.length) failed(span, errorCode(errors[0]));
        return result;
      });
    },

    apolloPlugin: {
      async requestDidStart() {
        const span = context.active().getValue(operationSpanKey) as Span | undefined;
        if (!span) return;
        return {
          async didResolveOperation({ operation, operationName }) {
            if (operation) nameOperation(span, { name: operationName ?? undefined, type: operation.operation });
          },
          async didEncounterErrors({ errors }) {
            failed(span, errorCode(errors[0]));
          },
        };
      },
    },
  };
}

/** The span of one SQL statement sent straight to the driver. */
function statementSpan({ api }: OpenTelemetry, tracer: Tracer, text: string, server: { address: string; port: number } | undefined): Span {
  const operation = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? 'postgresql';
  return tracer.startSpan(operation, {
    kind: api.SpanKind.CLIENT,
    // The text only: parameters are always bound (src/db/client.ts), so it holds no values.
    attributes: {
      'db.system': 'postgresql',
      'db.system.name': 'postgresql',
      'db.operation.name': operation,
      'db.query.text': text,
      // The server it ran on: the primary, or a replica (src/db/replicas.ts).
      ...(server ? { 'server.address': server.address, 'server.port': server.port } : {}),
    },
  });
}

/** A GraphQL error's `extensions.code` (src/core/errors.ts gives every error one). */
function errorCode(error: { extensions?: Readonly<Record<string, unknown>> } | undefined): string {
  const code = error?.extensions?.code;
  return typeof code === 'string' ? code : 'GRAPHQL_ERROR';
}

/**
 * Prisma names the database of its statement spans `db.system.name`, as today's semantic conventions do;
 * this adds `db.system`, the older name that many backends still read, beside it, and the server the
 * statement ran on (`server`: a replica's, else the primary's).
 */
function withDbSystem(provider: TracerProvider, context: { active(): Context }, server: () => Server | undefined): TracerProvider {
  const withAttribute = (options: SpanOptions = {}): SpanOptions => {
    const system = options.attributes?.['db.system.name'];
    if (system === undefined) return options;
    const on = server();
    const address = on ? { 'server.address': on.address, 'server.port': on.port } : {};
    return { ...options, attributes: { ...options.attributes, 'db.system': system, ...address } };
  };
  const tracers = new Map<string, Tracer>();
  return {
    getTracer(name, version, options) {
      const key = `${name}@${version ?? ''}`;
      let wrapped = tracers.get(key);
      if (!wrapped) {
        const tracer = provider.getTracer(name, version, options);
        wrapped = {
          startSpan: (spanName, spanOptions, parent) => tracer.startSpan(spanName, withAttribute(spanOptions), parent),
          // (name, fn), (name, options, fn) or (name, options, context, fn)
          startActiveSpan: (spanName: string, ...args: unknown[]) => {
            const run = args.pop() as (span: Span) => unknown;
            const [spanOptions, parent] = args as [SpanOptions | undefined, Context | undefined];
            return tracer.startActiveSpan(spanName, withAttribute(spanOptions), parent ?? context.active(), run);
          },
        };
        tracers.set(key, wrapped);
      }
      return wrapped;
    },
  };
}
