import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { registerAdmission, type AdmissionStats } from './admission.ts';
import type { RequestAuthentication } from './authentication.ts';
import { registerDrain, type Lifecycle } from './drain.ts';
import { PROBE_ROUTES } from './probes.ts';
import { registerPrivateByDefault } from './public-cache.ts';
import { registerRateLimit, type RateLimitStore } from './rate-limit.ts';
import { registerRequestLog } from './request-log.ts';
import { registerSecurityHeaders } from './security-headers.ts';

// What every request meets before its route, in this order (SECURITY.md): security headers, the drain, the
// rate limit, admission of large bodies; and after its answer, `private, no-store` unless it said otherwise, and its log line.

export type HardeningOptions = {
  config: Config;
  lifecycle: Lifecycle;
  authentication: RequestAuthentication;
  rateLimitStore?: RateLimitStore | undefined;
};

export async function registerHardening(
  app: FastifyInstance,
  { config, lifecycle, authentication, rateLimitStore }: HardeningOptions,
): Promise<AdmissionStats> {
  registerSecurityHeaders(app);
  registerPrivateByDefault(app);
  registerDrain(app, lifecycle);
  await registerRateLimit(app, config, authentication, rateLimitStore);
  // After the rate limit and the drain, so that a request they refuse never takes room.
  const admission = registerAdmission(
    app,
    {
      budget: config.admissionBytes,
      queue: config.admissionQueue,
      queueTimeoutMs: config.admissionQueueTimeoutMs,
      threshold: config.admissionThreshold,
      bodyLimit: config.bodyLimit,
    },
    (request) => PROBE_ROUTES.has(request.routeOptions.url ?? ''),
  );
  registerRequestLog(app, authentication);
  return admission;
}
