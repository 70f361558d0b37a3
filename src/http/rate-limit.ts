import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { RequestAuthentication } from './authentication.ts';
import { PROBE_ROUTES } from './probes.ts';

// The rate limit: per caller (per IP when anonymous), on every route but the probes; a 429 takes the
// route's error handler, so REST and GraphQL both answer the `meta` envelope, with Retry-After.

/**
 * Counts one request of `key` (a caller key of src/auth/authenticator.ts, or `ip:` and an address) made
 * over `request`'s connection, such as a WebSocket's subscribe: whether that is over the limit.
 */
export type CountAgainstLimit = (request: FastifyRequest, key: string) => Promise<{ exceeded: boolean; retryAfterSeconds: number }>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The rate limit, for what a connection does besides its request (registerRateLimit). */
    countAgainstLimit: CountAgainstLimit;
  }
}

/** The headers @fastify/rate-limit adds to an answer about its caller's budget. */
const CALLER_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/**
 * Where counters live: Redis when `RATE_LIMIT_REDIS_URL` is set (instances share them), else
 * @fastify/rate-limit's in-memory store (per instance). Or a store of one's own: `{ store: MyStore }`.
 */
export type RateLimitStore = Pick<RateLimitPluginOptions, 'redis' | 'store' | 'nameSpace' | 'skipOnError'>;

export async function registerRateLimit(
  app: FastifyInstance,
  config: Config,
  authentication: RequestAuthentication,
  store?: RateLimitStore,
): Promise<void> {
  const ipKey = (request: FastifyRequest) => `ip:${request.ip}`;
  const isProbe = (request: FastifyRequest) => PROBE_ROUTES.has(request.routeOptions.url ?? '');
  /** Requests already counted against their IP, for the call to the platform they made (below). */
  const countedByIp = new WeakSet<FastifyRequest>();
  /** Requests being counted by `count`, with the key they are counted against. */
  const countingAs = new WeakMap<FastifyRequest, string>();
  /** The plugin's own limiter on its own store (one given options would count in a store of its own), once registered. */
  let limit: ReturnType<FastifyInstance['createRateLimit']> | undefined;
  const countNow: CountAgainstLimit = async (request, key) => {
    limit ??= app.createRateLimit();
    countingAs.set(request, key);
    try {
      const counted = await limit(request);
      if (counted.isAllowed || !counted.isExceeded) return { exceeded: false, retryAfterSeconds: 0 };
      return { exceeded: true, retryAfterSeconds: counted.ttlInSeconds };
    } finally {
      countingAs.delete(request);
    }
  };
  // One count of a key at a time: the in-memory store hands back its live counter, which counts made at the
  // same moment (a burst of subscribe messages) would all read at its latest, every one of them over.
  const queues = new Map<string, Promise<unknown>>();
  const count: CountAgainstLimit = (request, key) => {
    const counted = (queues.get(key) ?? Promise.resolve()).then(() => countNow(request, key));
    const settled = counted.catch(() => undefined);
    queues.set(key, settled);
    void settled.then(() => queues.get(key) === settled && queues.delete(key));
    return counted;
  };
  app.decorate('countAgainstLimit', count);

  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    max: config.rateLimitMax,
    timeWindow: config.rateLimitWindowMs,
    // Per caller (src/auth/authenticator.ts, callerKey: never the credential itself, in memory or in Redis), else per IP.
    // A caller that cannot be known now (the database down) counts by IP: the route answers the outage in its own words.
    keyGenerator: async (request) => {
      const counting = countingAs.get(request);
      if (counting) return counting;
      // A session cookie not yet known costs a call to the platform: counted against the IP first, and
      // refused without the call once the IP is over its budget (docs/identity.md, Counting callers).
      if (!isProbe(request) && authentication.asksPlatform(request)) {
        if ((await count(request, ipKey(request))).exceeded) return ipKey(request);
        countedByIp.add(request);
      }
      const callerKey = (await authentication.of(request).catch(() => undefined))?.callerKey;
      if (callerKey) countedByIp.delete(request);
      return callerKey ?? ipKey(request);
    },
    // The probes are never limited; a request the call to the platform already counted is not counted twice.
    allowList: (request, key) => isProbe(request) || (key === ipKey(request) && countedByIp.delete(request)),
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error(`Too many requests, retry in ${context.after}`), { statusCode: context.statusCode }),
    ...(store ?? sharedStore(app, config)),
  });
  // A public answer (src/http/public-cache.ts) is handed by a shared cache to everyone: it says nothing of
  // the caller who happened to ask, so not where that caller's budget stands.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (/^\s*public\b/i.test(String(reply.getHeader('cache-control') ?? ''))) for (const name of CALLER_HEADERS) reply.removeHeader(name);
    return payload;
  });
}

/**
 * Counters in Redis, shared by every instance. A Redis that is down or slow limits nobody (the request
 * goes on, and the outage is logged) rather than failing lessons: commands fail at once while it is
 * unreachable instead of queueing.
 */
function sharedStore(app: FastifyInstance, config: Config): RateLimitStore {
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
