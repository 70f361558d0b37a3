import { hash } from 'node:crypto';
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { Redis } from 'ioredis';
import type { Viewer } from '../auth/viewer.ts';
import type { Config } from '../config.ts';
import { fromHttpStatus } from './errors.ts';
import { registerAdmission, type AdmissionStats } from './admission.ts';

// What every request meets before its route: security headers, the rate limit, the drain at shutdown,
// admission of large bodies, and the one log line per request (SECURITY.md describes them).

/** Shared between main (which starts the drain) and the app (which answers 503 while it lasts). */
export type Lifecycle = { draining: boolean };

export type HardeningOptions = {
  config: Config;
  lifecycle: Lifecycle;
  /**
   * Where rate-limit counters live: Redis when `RATE_LIMIT_REDIS_URL` is set (instances share them),
   * else @fastify/rate-limit's in-memory store (per instance). Or a store of one's own:
   * `{ store: MyStore }` (a class with `incr(key, callback)` and `child(routeOptions)`).
   */
  rateLimitStore?: Pick<RateLimitPluginOptions, 'redis' | 'store' | 'nameSpace' | 'skipOnError'>;
};

/** Routes a load balancer or orchestrator polls: never limited, answered while draining. */
const probes = new Set(['/healthz', '/readyz']);

type RequestNotes = { userId?: number };
const notes = new WeakMap<FastifyRequest, RequestNotes>();

/** Records who the caller turned out to be, for the request's log line. */
export function noteViewer(request: FastifyRequest, viewer: Viewer): void {
  if (viewer.kind === 'user') notes.set(request, { ...notes.get(request), userId: viewer.user.id });
}

/**
 * The rate-limit key: a hash of the Authorization header when there is one (never the token itself,
 * which would then sit in memory or in Redis as a key), else the caller's IP.
 */
export function rateLimitKey(request: FastifyRequest): string {
  const authorization = request.headers.authorization;
  if (authorization && authorization.trim() !== '') return `auth:${authorizationKey(authorization)}`;
  return `ip:${request.ip}`;
}

/** A key for counting by credentials without keeping them: a hash of the Authorization header. */
export function authorizationKey(authorization: string): string {
  return hash('sha256', authorization.trim(), 'hex').slice(0, 32);
}

/** The GraphQL operation's name, from the request body (never logged: only the name is read). */
function operationName(request: FastifyRequest): string | undefined {
  const body = request.body as { operationName?: unknown; query?: unknown } | undefined;
  if (!body || typeof body !== 'object') return undefined;
  if (typeof body.operationName === 'string' && /^[_A-Za-z]\w{0,99}$/.test(body.operationName)) return body.operationName;
  if (typeof body.query !== 'string') return undefined;
  const match = /^\s*(?:#[^\n]*\n\s*)*(?:query|mutation|subscription)\s+([_A-Za-z]\w{0,99})/.exec(body.query.slice(0, 2_000));
  return match?.[1] ?? 'anonymous';
}

// An API answers JSON: nothing in it may run, load or be framed. HTML pages the gateway serves itself
// (the playground, the docs page) may load from this host only.
const apiCsp = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const pageCsp =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

/**
 * helmet's security headers (its defaults, CSP left to the hook below, same-site resources). They depend
 * on these options alone, never on the request: computed once here, rather than by running helmet's
 * middleware for every request as @fastify/helmet does (measured on the hot read: README, Performance).
 */
function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let done = false;
  helmet({ contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: 'same-site' } })(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    () => (done = true),
  );
  if (!done || Object.keys(headers).length === 0) throw new Error('helmet did not give its headers synchronously');
  return headers;
}

export async function registerHardening(
  app: FastifyInstance,
  { config, lifecycle, rateLimitStore }: HardeningOptions,
): Promise<{ admission: AdmissionStats }> {
  // Security headers. CSP is set below per kind of response; HSTS only matters behind TLS (browsers
  // ignore it over plain HTTP).
  // Hooks that do their work at once take `done` rather than being async: no promise per request.
  const headers = securityHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = String(reply.getHeader('content-type') ?? '');
    reply.header('content-security-policy', type.startsWith('text/html') ? pageCsp : apiCsp);
    // An answer finished during the drain closes its connection, so that the server can close.
    if (lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });

  // The drain: from SIGTERM until the last in-flight request is answered, /readyz says so (the load
  // balancer stops sending) and a request arriving on a kept-alive connection is 503, told to reconnect.
  app.addHook('onRequest', (request, reply, done) => {
    if (!lifecycle.draining) return done();
    reply.header('connection', 'close');
    const route = request.routeOptions.url;
    if (route === '/healthz') return done();
    if (route === '/readyz') return void reply.code(503).send({ status: 'draining' });
    reply.code(503).header('retry-after', '5').send(fromHttpStatus(503, 'The server is shutting down, try again shortly'));
  });

  // The rate limit: per token (per IP when anonymous), on every route but the probes. A 429 takes the
  // route's error handler, so REST and GraphQL both answer the `meta` envelope, with Retry-After.
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    max: config.rateLimitMax,
    timeWindow: config.rateLimitWindowMs,
    keyGenerator: rateLimitKey,
    allowList: (request) => probes.has(request.routeOptions.url ?? ''),
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error(`Too many requests, retry in ${context.after}`), {
        statusCode: context.statusCode,
      }),
    ...(rateLimitStore ?? sharedRateLimitStore(app, config)),
  });

  // Large bodies share a budget of bytes, in a bounded queue (src/http/admission.ts). Its hook runs after
  // the rate limit and the drain, so that a request they refuse never takes room.
  const admission = {
    budget: config.admissionBytes,
    queue: config.admissionQueue,
    queueTimeoutMs: config.admissionQueueTimeoutMs,
    threshold: config.admissionThreshold,
    bodyLimit: config.bodyLimit,
  };
  const admissionStats = registerAdmission(app, admission, (request) => probes.has(request.routeOptions.url ?? ''));

  // One line per request, after its answer: who, what, how it went. Never a header, a body or a URL's
  // query: the route pattern and the operation name say what was asked.
  app.addHook('onResponse', (request, reply, done) => {
    // Below LOG_LEVEL=info the line is not written: nor is it built (the operation's name is a regex over the body).
    if (!(request.log as Logger).isLevelEnabled('info')) return done();
    const route = request.routeOptions.url ?? null;
    const fields: Record<string, unknown> = {
      method: request.method,
      route,
      statusCode: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
    };
    const userId = notes.get(request)?.userId;
    if (userId !== undefined) fields.userId = userId;
    if (route === '/graphql' && request.method === 'POST') fields.operation = operationName(request);
    request.log.info(fields, 'request');
    done();
  });
  return { admission: admissionStats };
}

/**
 * Counters in Redis, shared by every instance. A Redis that is down or slow limits nobody (the request
 * goes on, and the outage is logged) rather than failing lessons: commands fail at once while it is
 * unreachable instead of queueing.
 */
function sharedRateLimitStore(app: FastifyInstance, config: Config): HardeningOptions['rateLimitStore'] {
  if (!config.rateLimitRedisUrl) return {};
  const redis = new Redis(config.rateLimitRedisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 500,
  });
  let reported = false;
  redis.on('error', (error: Error) => {
    if (!reported) app.log.warn({ err: error }, 'rate-limit store (Redis) unreachable: requests are not limited until it is back');
    reported = true;
  });
  redis.on('ready', () => {
    if (reported) app.log.info('rate-limit store (Redis) is back');
    reported = false;
  });
  // Counting starts with the first request: until the connection is up, commands would fail and pass
  // requests unlimited. Startup waits for it, but no longer than one connect attempt.
  app.addHook('onReady', async () => {
    if (redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, 2_500);
      redis.once('ready', done);
      redis.once('error', done);
    });
  });
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  return { redis, nameSpace: 'lessons-gateway-rate-limit:', skipOnError: true };
}
