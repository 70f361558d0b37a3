import { z } from 'zod';
import { identitySettings, JWT_ALGORITHMS, type Identity } from './auth/identity-settings.ts';

// The one place that reads process.env: each setting once (its variable, its rule, its default), checked at
// start; a bad value stops the start with a message naming it (docs/contract.md, Running it).

const sizeInBytes = z
  .string()
  .trim()
  .regex(/^\d+\s*(b|kb|mb|gb)?$/i, 'expected bytes, or a number with a kb/mb/gb suffix (e.g. 5mb)')
  .transform((value) => {
    const match = /^(\d+)\s*([a-z]*)$/i.exec(value)!;
    const unit = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[match[2]!.toLowerCase()] ?? 1;
    return Number(match[1]) * unit;
  })
  .refine((bytes) => bytes > 0, 'must be more than 0');

// A duration: milliseconds, or a number with a unit (`1 minute`, `30s`, `2 hours`).
const durationMs = z
  .string()
  .trim()
  .regex(/^\d+\s*(ms|s|sec|seconds?|m|min|minutes?|h|hours?)?$/i, 'expected milliseconds, or a number with a unit (e.g. 1 minute, 30s)')
  .transform((value) => {
    const match = /^(\d+)\s*([a-z]*)$/i.exec(value)!;
    const unit = match[2]!.toLowerCase();
    const factor = unit === '' || unit === 'ms' ? 1 : unit.startsWith('s') ? 1_000 : unit.startsWith('m') ? 60_000 : 3_600_000;
    return Number(match[1]) * factor;
  });
const duration = durationMs.refine((ms) => ms >= 1_000 && ms <= 86_400_000, 'must be from 1 second to 24 hours');
// A retention: the same syntax, and days too (`7 days`).
const retention = z
  .string()
  .trim()
  .regex(/^\d+\s*(ms|s|sec|seconds?|m|min|minutes?|h|hours?|d|days?)?$/i, 'expected a number with a unit (e.g. 7 days, 12h, 30s)')
  .transform((value) => {
    const match = /^(\d+)\s*([a-z]*)$/i.exec(value)!;
    const unit = match[2]!.toLowerCase();
    const factor =
      unit === '' || unit === 'ms'
        ? 1
        : unit.startsWith('s')
          ? 1_000
          : unit.startsWith('m')
            ? 60_000
            : unit.startsWith('h')
              ? 3_600_000
              : 86_400_000;
    return Number(match[1]) * factor;
  })
  .refine((ms) => ms >= 1_000 && ms <= 366 * 86_400_000, 'must be from 1 second to 366 days');
// An HTTP timeout (same syntax): never 0, which Node reads as "no timeout".
const timeout = durationMs.refine((ms) => ms >= 100 && ms <= 3_600_000, 'must be from 100 ms to 1 hour');

const flag = z.enum(['0', '1', 'true', 'false']).transform((value) => value === '1' || value === 'true');
const count = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const port = count(0, 65_535);
const httpUrl = z.url({ protocol: /^https?$/ });
const url = httpUrl.transform((value) => value.replace(/\/+$/, ''));
const postgresUrl = z
  .string()
  .trim()
  .regex(/^postgres(ql)?:\/\//, 'expected a postgresql:// URL');
/** Unset and empty are the same: absent. */
const unlessEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());

/** A comma-separated list, trimmed, empty entries dropped. */
const list = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );
/** A cookie's name (RFC 6265's token characters). */
const cookieName = z
  .string()
  .trim()
  .regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, 'expected a cookie name');

/** A setting: the environment variable it is read from, and its rule (with its default). */
const setting = <S extends z.ZodType>(variable: string, schema: S) => ({ variable, schema });

const settings = {
  port: setting('PORT', port.default(4000)),
  host: setting('HOST', z.string().trim().min(1).default('127.0.0.1')),
  /** postgresql:// selects a PostgreSQL server; unset, the embedded PGlite under `dataDir`. */
  databaseUrl: setting('DATABASE_URL', unlessEmpty(postgresUrl)),
  /** The server itself when DATABASE_URL names a pooler: the listening connection and migrations (docs/operations.md, Behind a connection pooler). */
  databaseDirectUrl: setting('DATABASE_DIRECT_URL', unlessEmpty(postgresUrl)),
  /** Off (`0`): every driver-level read is sent unnamed, for a pooler in transaction mode that keeps no named statement. */
  databasePreparedStatements: setting('DATABASE_PREPARED_STATEMENTS', flag.default(true)),
  /**
   * Every wait on the database: for a pooled connection, for a transaction to start, for a statement's
   * answer; past it the request is 503 `unavailable` (docs/operations.md, A stalled database).
   */
  databaseStatementTimeoutMs: setting('DATABASE_STATEMENT_TIMEOUT', timeout.default(10_000)),
  /** Hot standbys of DATABASE_URL's server that serve reads (src/db/replicas.ts; docs/operations.md, Read replicas); empty: none. */
  databaseReplicaUrls: setting(
    'DATABASE_REPLICA_URLS',
    list.pipe(z.array(z.string().regex(/^postgres(ql)?:\/\/[^,\s]+$/, 'expected comma-separated postgresql:// URLs'))),
  ),
  /** A replica whose replay is further behind the primary than this is left out until it is within it again. */
  databaseReplicaMaxLagMs: setting('DATABASE_REPLICA_MAX_LAG', timeout.default(5_000)),
  dataDir: setting('DATA_DIR', z.string().trim().min(1).default('./.data')),
  /** Where follow-up links point (docs/contract.md, finish_lesson). */
  appUrl: setting('APP_URL', url.default('http://localhost:3000')),
  corsOrigins: setting(
    'CORS_ORIGINS',
    list.pipe(z.array(z.url({ protocol: /^https?$/ }).transform((origin) => origin.replace(/\/+$/, '')))),
  ),
  /** How long a browser may keep a preflight's answer (`Access-Control-Max-Age`), in whole seconds; 0: not kept. */
  corsMaxAgeSeconds: setting(
    'CORS_MAX_AGE',
    durationMs
      .refine((ms) => ms % 1_000 === 0 && ms <= 86_400_000, 'must be whole seconds, from 0 to 24 hours')
      .transform((ms) => ms / 1_000)
      .default(600),
  ),
  bodyLimit: setting('BODY_LIMIT', sizeInBytes.default(5 * 1024 * 1024)),
  /** The largest GraphQL answer sent; a larger one is `data: null` and one RESPONSE_TOO_LARGE error (src/graphql/answer-size.ts). */
  responseLimit: setting('RESPONSE_LIMIT', sizeInBytes.default(10 * 1024 * 1024)),
  /** A request's headers must arrive within this (408 and closed otherwise); also a new connection's first request. */
  headersTimeoutMs: setting('HEADERS_TIMEOUT', timeout.default(10_000)),
  /** A whole request, headers and body, must arrive within this (408 and closed otherwise). */
  requestTimeoutMs: setting('REQUEST_TIMEOUT', timeout.default(30_000)),
  /** An idle kept-alive connection is closed this long after its last answer. */
  keepAliveTimeoutMs: setting('KEEP_ALIVE_TIMEOUT', timeout.default(5_000)),
  /** After SIGTERM, how long /readyz answers 503 while everything else is served, before the drain (docs/operations.md, A rolling deploy). */
  shutdownDelayMs: setting('SHUTDOWN_DELAY', durationMs.refine((ms) => ms <= 600_000, 'must be from 0 to 10 minutes').default(0)),
  /** The drain closes its WebSockets (1001) and ends its event streams spread over this, not all at once. */
  shutdownSpreadMs: setting('SHUTDOWN_SPREAD', durationMs.refine((ms) => ms <= 600_000, 'must be from 0 to 10 minutes').default(5_000)),
  /** Connections open at once; those beyond are closed as soon as they are accepted (sized in docs/operations.md, Connections and timeouts). */
  maxConnections: setting('MAX_CONNECTIONS', count(1, 1_000_000).default(16_000)),
  logLevel: setting('LOG_LEVEL', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  nodeEnv: setting('NODE_ENV', z.enum(['development', 'production', 'test']).default('development')),
  /** Playground and introspection: on in development, off in production unless PLAYGROUND=1 (see loadConfig). */
  playgroundSetting: setting('PLAYGROUND', flag.optional()),
  demoData: setting('DEMO_DATA', flag.default(true)),
  /** Requests each caller (token, else IP) may make per `rateLimitWindowMs` before 429. */
  rateLimitMax: setting('RATE_LIMIT_MAX', count(1, 1_000_000).default(6000)),
  rateLimitWindowMs: setting('RATE_LIMIT_WINDOW', duration.default(60_000)),
  /** Where instances share the rate-limit counters; unset: each instance counts in memory. */
  rateLimitRedisUrl: setting(
    'RATE_LIMIT_REDIS_URL',
    unlessEmpty(
      z
        .string()
        .trim()
        .regex(/^rediss?:\/\//, 'expected a redis:// (or rediss://) URL'),
    ),
  ),
  /** Bytes of large bodies worked on at once; more wait in a queue (src/http/admission.ts; docs/operations.md, Large bodies). */
  admissionBytes: setting('ADMISSION_BYTES', sizeInBytes.default(10 * 1024 * 1024)),
  /** Large requests that may wait for room; more are 503 at once. */
  admissionQueue: setting('ADMISSION_QUEUE', count(0, 100_000).default(100)),
  /** How long one may wait before it is 503. */
  admissionQueueTimeoutMs: setting('ADMISSION_QUEUE_TIMEOUT', duration.default(15_000)),
  /** Bodies up to this size are not counted (nor queued). */
  admissionThreshold: setting('ADMISSION_THRESHOLD', sizeInBytes.default(64 * 1024)),
  /** WebSocket connections one token may hold open at once on an instance. */
  subscriptionConnectionsPerToken: setting('SUBSCRIPTION_CONNECTIONS_PER_TOKEN', count(1, 100_000).default(10)),
  /** Subscriptions one WebSocket connection may run at once. */
  subscriptionsPerConnection: setting('SUBSCRIPTIONS_PER_CONNECTION', count(1, 10_000).default(20)),
  /** A ping is sent on each WebSocket this often (a dead peer is closed when it does not answer). */
  subscriptionKeepAliveMs: setting('SUBSCRIPTION_KEEP_ALIVE', duration.default(15_000)),
  /** How long lesson events stay stored, to be replayed (`after`): older ones are deleted within a minute (docs/operations.md, Live lessons). */
  lessonEventsRetentionMs: setting('LESSON_EVENTS_RETENTION', retention.default(7 * 86_400_000)),
  /** Bytes that may wait to be sent to one WebSocket; past it the socket is closed (1008) and dropped (src/graphql/subscriptions/socket.ts). */
  subscriptionSendBufferBytes: setting(
    'SUBSCRIPTION_SEND_BUFFER',
    sizeInBytes.refine((bytes) => bytes >= 64 * 1024, 'must be at least 64kb (the largest message a pong may echo)').default(1024 * 1024),
  ),
  /** A WebSocket must send connection_init within this, else it is closed (4408). */
  subscriptionInitTimeoutMs: setting('SUBSCRIPTION_INIT_TIMEOUT', duration.default(10_000)),
  /** How long an instance remembers a token it verified (evicted at once when it changes; src/auth/token-cache.ts); 0: not at all. */
  tokenCacheTtlMs: setting('TOKEN_CACHE_TTL', durationMs.refine((ms) => ms <= 60_000, 'must be from 0 (off) to 1 minute').default(5_000)),
  // Traces (src/telemetry/): the OpenTelemetry SDK reads these and the other OTEL_* variables itself; they
  // are checked here so that a mistyped endpoint stops the start.
  otlpEndpoint: setting('OTEL_EXPORTER_OTLP_ENDPOINT', unlessEmpty(httpUrl)),
  otlpTracesEndpoint: setting('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', unlessEmpty(httpUrl)),
  otelSdkDisabled: setting('OTEL_SDK_DISABLED', z.string().optional()),
  /** Where GET /metrics is served, on `host` (src/metrics/listener.ts); undefined: no metrics at all. */
  metricsPort: setting('METRICS_PORT', unlessEmpty(port)),
  /** `/graphql` serves an Apollo Federation 2 subgraph (docs/federation.md): `_service`, `_entities`, the entity keys. */
  subgraph: setting('SUBGRAPH', flag.default(false)),
  /** A manifest of the operations the first-party clients ship (src/graphql/trusted-documents.ts); unset: any document runs. */
  trustedDocuments: setting('TRUSTED_DOCUMENTS', unlessEmpty(z.string().trim().min(1))),
  /** `enforce`: only listed documents run; `log`: all run, those outside the list are logged and counted. */
  trustedDocumentsMode: setting('TRUSTED_DOCUMENTS_MODE', z.enum(['enforce', 'log']).default('enforce')),
  /**
   * How long a CDN or browser may keep a public read (`Cache-Control: public, max-age`; src/http/public-cache.ts), in whole
   * seconds; 0: no public caching at all, every answer `private, no-store` (docs/operations.md, HTTP caching).
   */
  publicCacheMaxAgeMs: setting(
    'PUBLIC_CACHE_MAX_AGE',
    durationMs.refine((ms) => ms % 1_000 === 0 && ms <= 86_400_000, 'must be whole seconds, from 0 (off) to 24 hours').default(60_000),
  ),
};

/** Identity from the main application (src/auth/identity-settings.ts; docs/identity.md): each off unless set. */
const identityVariables = {
  jwtJwksUrl: setting('AUTH_JWT_JWKS_URL', unlessEmpty(httpUrl)),
  jwtJwksTimeoutMs: setting('AUTH_JWT_JWKS_TIMEOUT', timeout.default(2_000)),
  jwtKey: setting('AUTH_JWT_KEY', unlessEmpty(z.string())),
  jwtIssuers: setting('AUTH_JWT_ISSUER', list),
  jwtAudiences: setting('AUTH_JWT_AUDIENCE', list),
  jwtAlgorithms: setting(
    'AUTH_JWT_ALGORITHMS',
    list.pipe(z.array(z.enum(JWT_ALGORITHMS, 'expected JWS algorithms such as RS256,ES256,EdDSA or HS256'))),
  ),
  jwtClockSkewMs: setting('AUTH_JWT_CLOCK_SKEW', durationMs.refine((ms) => ms <= 300_000, 'must be from 0 to 5 minutes').default(30_000)),
  jwtUserClaim: setting('AUTH_JWT_USER_CLAIM', z.string().trim().min(1).default('sub')),
  jwtCookie: setting('AUTH_JWT_COOKIE', unlessEmpty(cookieName)),
  sessionWebhookUrl: setting('AUTH_SESSION_WEBHOOK_URL', unlessEmpty(httpUrl)),
  sessionCookie: setting('AUTH_SESSION_COOKIE', unlessEmpty(cookieName)),
  sessionWebhookTimeoutMs: setting('AUTH_SESSION_WEBHOOK_TIMEOUT', timeout.default(2_000)),
  sessionCacheTtlMs: setting(
    'AUTH_SESSION_CACHE_TTL',
    durationMs.refine((ms) => ms <= 3_600_000, 'must be from 0 (off) to 1 hour').default(30_000),
  ),
};

type Setting = ReturnType<typeof setting>;
type ReadOf<Group extends Record<string, Setting>> = { [Key in keyof Group]: z.output<Group[Key]['schema']> };
type Read = ReadOf<typeof settings>;
const readGroup = <Group extends Record<string, Setting>>(group: Group, data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(group).map(([key, { variable }]) => [key, data[variable]])) as ReadOf<Group>;

export type Config = Omit<Read, 'nodeEnv' | 'playgroundSetting' | 'otlpEndpoint' | 'otlpTracesEndpoint' | 'otelSdkDisabled'> & {
  /** Which identities from the main application are accepted besides the gateway's own tokens (docs/identity.md). */
  identity: Identity;
  production: boolean;
  /** Playground and introspection: on in development, off in production unless PLAYGROUND=1. */
  playground: boolean;
  /** Where traces are sent (OTLP over HTTP); undefined: tracing is off and its modules are never loaded. */
  tracesEndpoint: string | undefined;
};

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

const envSchema = z.object(
  Object.fromEntries([...Object.values(settings), ...Object.values(identityVariables)].map(({ variable, schema }) => [variable, schema])),
);

/** Rules between settings, each naming the variables it concerns. */
function crossChecks(read: Read): string[] {
  const problems: string[] = [];
  // Node refuses to create a server whose headers timeout is longer than its request timeout.
  if (read.headersTimeoutMs > read.requestTimeoutMs)
    problems.push(`HEADERS_TIMEOUT (${read.headersTimeoutMs} ms) must not be longer than REQUEST_TIMEOUT (${read.requestTimeoutMs} ms)`);
  // Every body the body limit lets through must fit the budget (else it could only time out), and a
  // request must leave the queue before Node's request timeout ends it while its body is unread.
  if (read.admissionBytes < read.bodyLimit)
    problems.push(`ADMISSION_BYTES (${read.admissionBytes} bytes) must not be less than BODY_LIMIT (${read.bodyLimit} bytes)`);
  if (read.admissionQueueTimeoutMs >= read.requestTimeoutMs)
    problems.push(
      `ADMISSION_QUEUE_TIMEOUT (${read.admissionQueueTimeoutMs} ms) must be shorter than REQUEST_TIMEOUT (${read.requestTimeoutMs} ms)`,
    );
  if (read.databaseDirectUrl && !read.databaseUrl)
    problems.push('DATABASE_DIRECT_URL is set without DATABASE_URL: it names the server behind the pooler DATABASE_URL names');
  if (read.databaseReplicaUrls.length > 0 && !read.databaseUrl)
    problems.push(
      'DATABASE_REPLICA_URLS is set without DATABASE_URL: replicas are hot standbys of a PostgreSQL server, and the embedded database (PGlite) has none',
    );
  if (read.metricsPort !== undefined && read.metricsPort !== 0 && read.metricsPort === read.port)
    problems.push(`METRICS_PORT (${read.metricsPort}) must not be PORT: the metrics are never served on the public port`);
  return problems;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success)
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        return `${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`;
      }),
    );
  const read = readGroup(settings, parsed.data);
  const { identity, problems: identityProblems } = identitySettings(readGroup(identityVariables, parsed.data));
  const { nodeEnv, playgroundSetting, otlpEndpoint, otlpTracesEndpoint, otelSdkDisabled, ...config } = read;
  const problems = [...crossChecks(read), ...identityProblems];
  if (problems.length > 0) throw new ConfigError(problems);
  const production = nodeEnv === 'production';
  return {
    ...config,
    identity,
    production,
    playground: playgroundSetting ?? !production,
    // The OTLP spec's rule: the traces endpoint as given, else `/v1/traces` under the general one.
    tracesEndpoint:
      otelSdkDisabled?.trim().toLowerCase() === 'true'
        ? undefined
        : (otlpTracesEndpoint ?? (otlpEndpoint && `${otlpEndpoint.replace(/\/+$/, '')}/v1/traces`)),
  };
}
