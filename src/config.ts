import { z } from 'zod';

// The one place that reads process.env: every setting (docs/contract.md, Running it), validated at start.

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
// An HTTP timeout (same syntax): never 0, which Node reads as "no timeout".
const timeout = durationMs.refine((ms) => ms >= 100 && ms <= 3_600_000, 'must be from 100 ms to 1 hour');

const flag = z.enum(['0', '1', 'true', 'false']).transform((value) => value === '1' || value === 'true');

const url = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ''));

const otlpEndpoint = z
  .url({ protocol: /^https?$/ })
  .optional()
  .or(z.literal('').transform(() => undefined));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATA_DIR: z.string().trim().min(1).default('./.data'),
  APP_URL: url.default('http://localhost:3000'),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/ }).transform((origin) => origin.replace(/\/+$/, '')))),
  BODY_LIMIT: sizeInBytes.default(5 * 1024 * 1024),
  HEADERS_TIMEOUT: timeout.default(10_000),
  REQUEST_TIMEOUT: timeout.default(30_000),
  KEEP_ALIVE_TIMEOUT: timeout.default(5_000),
  // 16,000: room for 10,000 subscriptions beside plain HTTP, yet under a 20,000 open-file limit with room
  // left for the database pool, Redis and files (README, Configuration).
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(16_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PLAYGROUND: flag.optional(),
  DEMO_DATA: flag.default(true),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).max(1_000_000).default(6000),
  RATE_LIMIT_WINDOW: duration.default(60_000),
  RATE_LIMIT_REDIS_URL: z
    .string()
    .trim()
    .regex(/^rediss?:\/\//, 'expected a redis:// (or rediss://) URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  // Admission of large bodies (src/http/admission.ts); the defaults are sized in the README, Limits.
  ADMISSION_BYTES: sizeInBytes.default(10 * 1024 * 1024),
  ADMISSION_QUEUE: z.coerce.number().int().min(0).max(100_000).default(100),
  ADMISSION_QUEUE_TIMEOUT: duration.default(15_000),
  ADMISSION_THRESHOLD: sizeInBytes.default(64 * 1024),
  // Live lessons over WebSocket (src/graphql/subscriptions.ts; README, Live lessons).
  SUBSCRIPTION_CONNECTIONS_PER_TOKEN: z.coerce.number().int().min(1).max(100_000).default(10),
  SUBSCRIPTIONS_PER_CONNECTION: z.coerce.number().int().min(1).max(10_000).default(20),
  SUBSCRIPTION_KEEP_ALIVE: duration.default(15_000),
  SUBSCRIPTION_INIT_TIMEOUT: duration.default(10_000),
  // How long a verified token is remembered (src/auth/token-cache.ts); 0 turns the cache off.
  TOKEN_CACHE_TTL: durationMs.refine((ms) => ms <= 60_000, 'must be from 0 (off) to 1 minute').default(5_000),
  // Traces (src/telemetry/): on when an OTLP endpoint is set. The OpenTelemetry SDK reads these and the
  // other OTEL_* variables itself; they are checked here so that a mistyped endpoint stops the start.
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpEndpoint,
  OTEL_SDK_DISABLED: z.string().optional(),
  // Prometheus metrics on a second listener, HOST:METRICS_PORT (src/metrics/listener.ts); unset: none.
  METRICS_PORT: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().int().min(0).max(65535).optional(),
  ),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  appUrl: string;
  corsOrigins: string[];
  bodyLimit: number;
  /** A request's headers must arrive within this (408 and closed otherwise); also a new connection's first request. */
  headersTimeoutMs: number;
  /** A whole request, headers and body, must arrive within this (408 and closed otherwise). */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed this long after its last answer. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; those beyond are closed as soon as they are accepted. */
  maxConnections: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  production: boolean;
  /** Playground and introspection: on in development, off in production unless PLAYGROUND=1. */
  playground: boolean;
  demoData: boolean;
  /** Requests each caller (token, else IP) may make per `rateLimitWindowMs` before 429. */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Where instances share the rate-limit counters; unset: each instance counts in memory. */
  rateLimitRedisUrl: string | undefined;
  /** Bytes of large bodies worked on at once; more wait in a queue (README, Limits). */
  admissionBytes: number;
  /** Large requests that may wait for room; more are 503 at once. */
  admissionQueue: number;
  /** How long one may wait before it is 503. */
  admissionQueueTimeoutMs: number;
  /** Bodies up to this size are not counted (nor queued). */
  admissionThreshold: number;
  /** WebSocket connections one token may hold open at once on an instance. */
  subscriptionConnectionsPerToken: number;
  /** Subscriptions one WebSocket connection may run at once. */
  subscriptionsPerConnection: number;
  /** A ping is sent on each WebSocket this often (a dead peer is closed when it does not answer). */
  subscriptionKeepAliveMs: number;
  /** A WebSocket must send connection_init within this, else it is closed (4408). */
  subscriptionInitTimeoutMs: number;
  /** How long an instance remembers a token it verified (evicted at once when it changes); 0: not at all. */
  tokenCacheTtlMs: number;
  /** Where traces are sent (OTLP over HTTP); undefined: tracing is off and its modules are never loaded. */
  tracesEndpoint: string | undefined;
  /** Where GET /metrics is served, on `host`; undefined: no metrics at all. */
  metricsPort: number | undefined;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  // Node refuses to create a server whose headers timeout is longer than its request timeout.
  if (e.HEADERS_TIMEOUT > e.REQUEST_TIMEOUT) {
    throw new ConfigError(
      `Invalid configuration:\n  HEADERS_TIMEOUT (${e.HEADERS_TIMEOUT} ms) must not be longer than REQUEST_TIMEOUT (${e.REQUEST_TIMEOUT} ms)`,
    );
  }
  // Every body the body limit lets through must fit the budget (else it could only time out), and a
  // request must leave the queue before Node's request timeout ends it while its body is unread.
  if (e.ADMISSION_BYTES < e.BODY_LIMIT) {
    throw new ConfigError(
      `Invalid configuration:\n  ADMISSION_BYTES (${e.ADMISSION_BYTES} bytes) must not be less than BODY_LIMIT (${e.BODY_LIMIT} bytes)`,
    );
  }
  if (e.ADMISSION_QUEUE_TIMEOUT >= e.REQUEST_TIMEOUT) {
    throw new ConfigError(
      `Invalid configuration:\n  ADMISSION_QUEUE_TIMEOUT (${e.ADMISSION_QUEUE_TIMEOUT} ms) must be shorter than REQUEST_TIMEOUT (${e.REQUEST_TIMEOUT} ms)`,
    );
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw new ConfigError(
      `Invalid configuration:\n  METRICS_PORT (${e.METRICS_PORT}) must not be PORT: the metrics are never served on the public port`,
    );
  }
  const production = e.NODE_ENV === 'production';
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    appUrl: e.APP_URL,
    corsOrigins: e.CORS_ORIGINS,
    bodyLimit: e.BODY_LIMIT,
    headersTimeoutMs: e.HEADERS_TIMEOUT,
    requestTimeoutMs: e.REQUEST_TIMEOUT,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT,
    maxConnections: e.MAX_CONNECTIONS,
    logLevel: e.LOG_LEVEL,
    production,
    playground: e.PLAYGROUND ?? !production,
    demoData: e.DEMO_DATA,
    rateLimitMax: e.RATE_LIMIT_MAX,
    rateLimitWindowMs: e.RATE_LIMIT_WINDOW,
    rateLimitRedisUrl: e.RATE_LIMIT_REDIS_URL,
    admissionBytes: e.ADMISSION_BYTES,
    admissionQueue: e.ADMISSION_QUEUE,
    admissionQueueTimeoutMs: e.ADMISSION_QUEUE_TIMEOUT,
    admissionThreshold: e.ADMISSION_THRESHOLD,
    subscriptionConnectionsPerToken: e.SUBSCRIPTION_CONNECTIONS_PER_TOKEN,
    subscriptionsPerConnection: e.SUBSCRIPTIONS_PER_CONNECTION,
    subscriptionKeepAliveMs: e.SUBSCRIPTION_KEEP_ALIVE,
    subscriptionInitTimeoutMs: e.SUBSCRIPTION_INIT_TIMEOUT,
    tokenCacheTtlMs: e.TOKEN_CACHE_TTL,
    tracesEndpoint: tracesEndpoint(e),
    metricsPort: e.METRICS_PORT,
  };
}

/** The URL the SDK sends spans to: the traces endpoint as given, else `/v1/traces` under the general one (the OTLP spec's rule). */
function tracesEndpoint(e: z.infer<typeof envSchema>): string | undefined {
  if (e.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  if (e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  return e.OTEL_EXPORTER_OTLP_ENDPOINT && `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
}
