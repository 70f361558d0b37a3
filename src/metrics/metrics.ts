import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ReplicaSet } from '../db/replicas.ts';
import type { AuthMethod, AuthOutcome } from '../auth/authenticator.ts';
import type { PoolStats } from '../db/client.ts';
import type { OutsideReason } from '../graphql/trusted-documents.ts';
import { isClientErrorCode } from '../graphql/format-error.ts';
import type { LiveCounts } from '../graphql/subscriptions/service.ts';
import type { AdmissionStats } from '../http/admission.ts';

// Prometheus metrics (README, Metrics), served on their own port by ./listener.ts. Every label value comes
// from a bounded set whatever clients send (docs/operations.md, Metrics); gauges are read when scraped, so
// only the two counters and the histogram cost anything per request.

/** Distinct operation names each API keeps as labels; a client naming operations at random fills them, then `(other)`. */
export const MAX_OPERATION_NAMES = 100;

// Sentinel label values: in parentheses, so that no route template or GraphQL name can equal them.
const OTHER = '(other)';
const UNMATCHED = '(unmatched)';
const ANONYMOUS = '(anonymous)';
const UNKNOWN = '(unknown)';
const NONE = '(none)';

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);

// From 2.5 ms (a cached read) to the 30 s request timeout: the benchmark's requests span 2 ms to seconds (docs/performance.md).
const durationBuckets = [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** What the gauges read at each scrape: the database's connections, admission's queue, the live lessons' sockets. */
export type MetricSources = { pool: () => PoolStats; admission: AdmissionStats; live: LiveCounts; replicas?: ReplicaSet | undefined };

/** The first `max` distinct values pass as they are; later new ones read as `(other)`. */
function firstDistinct(max: number): (value: string) => string {
  const kept = new Set<string>();
  return (value) => {
    if (kept.has(value)) return value;
    if (kept.size >= max) return OTHER;
    kept.add(value);
    return value;
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics() {
  const registry = new Registry();
  // CPU, resident memory, heap, event-loop lag, GC, handles: prom-client's process_* and nodejs_* metrics.
  collectDefaultMetrics({ register: registry });
  const { requestDuration, operations, errors, authentications, outsideTrusted } = perRequestMetrics(registry);

  return {
    registry,

    /** Counts an operation outside the trusted documents (src/graphql/trusted-documents.ts): both labels from fixed sets. */
    countOutsideTrusted: (outcome: 'refused' | 'ran', reason: OutsideReason) => outsideTrusted.inc({ outcome, reason }),

    /** Counts one authentication (src/auth/authenticator.ts): both labels come from fixed sets. */
    countAuthentication: (method: AuthMethod, outcome: AuthOutcome) => authentications.inc({ method, outcome }),

    /** Times every request, from its arrival to its answer. */
    observeHttp(app: FastifyInstance): void {
      app.addHook('onResponse', (request, reply, done) => {
        requestDuration.observe(
          {
            method: methods.has(request.method) ? request.method : OTHER,
            route: request.routeOptions.url ?? UNMATCHED,
            status_code: String(reply.statusCode),
          },
          reply.elapsedTime / 1_000,
        );
        done();
      });
    },

    /** Counts an Apollo server's operations and errors: `graphql` for /graphql's, `rest` for the REST routes' stored ones. */
    apolloPlugin: (api: 'graphql' | 'rest') => countingPlugin(api, operations, errors),

    /** The gauges, read at each scrape. */
    watch({ pool, admission, live, replicas }: MetricSources): void {
      const registers = [registry];
      if (replicas) watchReplicas(replicas, registers);
      watchPool(pool, registers);
      watchLive(live, registers);
      watchAdmission(admission, registers);
    },
  };
}

/** The two counters and the histogram that cost something per request, and the counters of authentications and untrusted operations. */
function perRequestMetrics(registry: Registry) {
  const registers = [registry];
  const requestDuration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'HTTP requests by method, route template ((unmatched) when no route matched) and status code, in seconds',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: durationBuckets,
    registers,
  });
  const operations = new Counter({
    name: 'graphql_operations_total',
    help: 'GraphQL operations by API (graphql: /graphql, rest: a REST route), operation name, type and outcome (success, error)',
    labelNames: ['api', 'operation_name', 'operation_type', 'outcome'] as const,
    registers,
  });
  const errors = new Counter({
    name: 'graphql_errors_total',
    help: 'Errors in GraphQL answers by API and extensions.code',
    labelNames: ['api', 'code'] as const,
    registers,
  });
  const authentications = new Counter({
    name: 'authentications_total',
    help: 'Callers that presented credentials, by method (token, jwt, session) and outcome (success, invalid, unavailable, no_session)',
    labelNames: ['method', 'outcome'] as const,
    registers,
  });
  const outsideTrusted = new Counter({
    name: 'graphql_untrusted_operations_total',
    help: 'Operations outside the trusted documents, by outcome (refused, or ran in log mode) and reason (unknown_id, not_in_list, apq_registration)',
    labelNames: ['outcome', 'reason'] as const,
    registers,
  });
  return { requestDuration, operations, errors, authentications, outsideTrusted };
}

type OperationCounter = Counter<'api' | 'operation_name' | 'operation_type' | 'outcome'>;
type ErrorCounter = Counter<'api' | 'code'>;

/** An Apollo plugin counting each operation once and each of its errors by code. */
function countingPlugin(api: 'graphql' | 'rest', operations: OperationCounter, errors: ErrorCounter): ApolloServerPlugin<BaseContext> {
  const nameOf = firstDistinct(MAX_OPERATION_NAMES);
  const count = (name: string, type: string, codes: unknown[]) => {
    operations.inc({ api, operation_name: name, operation_type: type, outcome: codes.length > 0 ? 'error' : 'success' });
    for (const code of codes) errors.inc({ api, code: typeof code !== 'string' ? NONE : isClientErrorCode(code) ? code : OTHER });
  };
  // A request that fails before it has an operation: a malformed one (BAD_REQUEST), or a context that
  // could not be built (the database down: UNAVAILABLE; anything else is answered as internal).
  const failedEarly = async ({ error }: { error: unknown }) => {
    const code = (error as { extensions?: { code?: unknown } }).extensions?.code;
    count(UNKNOWN, UNKNOWN, [typeof code === 'string' && isClientErrorCode(code) ? code : 'INTERNAL_SERVER_ERROR']);
  };
  return {
    invalidRequestWasReceived: failedEarly,
    contextCreationDidFail: failedEarly,
    async requestDidStart() {
      return {
        // Once per request, whatever happened; the operation is known only when its document parsed and validated.
        async willSendResponse({ operation, operationName, response }) {
          const found = response.body.kind === 'single' ? (response.body.singleResult.errors ?? []) : [];
          const name = !operation ? UNKNOWN : operationName ? nameOf(operationName) : ANONYMOUS;
          count(
            name,
            operation?.operation ?? UNKNOWN,
            found.map((error) => error.extensions?.code),
          );
        },
      };
    },
  };
}

/** The database connections: used, idle, waited for, at most. */
function watchPool(pool: MetricSources['pool'], registers: Registry[]): void {
  new Gauge({
    name: 'db_client_connection_count',
    help: 'Database connections by state (used, idle); PGlite is one connection',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const stats = pool();
      this.set({ state: 'used' }, stats.inUse);
      this.set({ state: 'idle' }, stats.idle);
    },
  });
  new Gauge({
    name: 'db_client_connection_pending_requests',
    help: 'Queries and transactions waiting for a database connection',
    registers,
    collect() {
      this.set(pool().waiting);
    },
  });
  new Gauge({
    name: 'db_client_connection_max',
    help: 'Database connections the pool may open (1 for PGlite)',
    registers,
    collect() {
      this.set(pool().max);
    },
  });
}

/** The live lessons' connections and subscriptions on this instance. */
function watchLive(live: LiveCounts, registers: Registry[]): void {
  new Gauge({
    name: 'graphql_ws_connections',
    help: 'Open subscription connections: WebSockets on /graphql and event streams on /graphql/stream',
    registers,
    collect() {
      this.set(live.connections());
    },
  });
  new Gauge({
    name: 'graphql_subscriptions',
    help: 'Subscriptions running on this instance',
    registers,
    collect() {
      this.set(live.subscriptions());
    },
  });
}

/** Admission of large bodies: its queue, the bytes in use, the refusals. */
function watchAdmission(admission: AdmissionStats, registers: Registry[]): void {
  new Gauge({
    name: 'http_admission_queue_length',
    help: 'Requests with large bodies waiting for room (ADMISSION_QUEUE at most)',
    registers,
    collect() {
      this.set(admission.waiting());
    },
  });
  new Gauge({
    name: 'http_admission_bytes_in_use',
    help: 'Bytes of large bodies being worked on (ADMISSION_BYTES at most)',
    registers,
    collect() {
      this.set(admission.bytesInUse());
    },
  });
  new Counter({
    name: 'http_admission_refusals_total',
    help: 'Requests with large bodies refused with 503, by reason (queue_full, timed_out)',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      this.reset();
      this.inc({ reason: 'queue_full' }, admission.refused.queueFull);
      this.inc({ reason: 'timed_out' }, admission.refused.timedOut);
    },
  });
}

/** Reads by target, each replica's replay lag, and the replicas in use (docs/operations.md, Read replicas). */
function watchReplicas(replicas: ReplicaSet, registers: Registry[]): void {
  new Counter({
    name: 'db_reads_total',
    help: 'Statements of GraphQL queries and REST GETs, by the server they were sent to (primary, replica)',
    labelNames: ['target'] as const,
    registers,
    collect() {
      this.reset();
      this.inc({ target: 'primary' }, replicas.reads.primary);
      this.inc({ target: 'replica' }, replicas.reads.replica);
    },
  });
  new Gauge({
    name: 'db_replica_lag_seconds',
    help: "Each replica's replay lag behind the primary (+Inf when it is unreachable or far behind)",
    labelNames: ['replica'] as const,
    registers,
    collect() {
      for (const replica of replicas.replicas) this.set({ replica: replica.label }, replica.up ? replica.lagMs / 1_000 : Infinity);
    },
  });
  new Gauge({
    name: 'db_replicas_in_use',
    help: 'Replicas reachable and within DATABASE_REPLICA_MAX_LAG, to which reads may go',
    registers,
    collect() {
      this.set(replicas.replicas.filter(replicas.usable).length);
    },
  });
}
