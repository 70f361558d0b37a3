import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Tracing } from '../telemetry/tracing.ts';
import type { AdmissionStats } from './admission.ts';
import type { RequestAuthentication } from './authentication.ts';
import { limitConnections } from './connections.ts';
import type { Lifecycle } from './drain.ts';
import { httpErrorHandler } from './errors.ts';
import { registerHardening } from './hardening.ts';
import type { RateLimitStore } from './rate-limit.ts';

// The edge every request crosses before any face, registered first: its span's name, the cap on open
// connections, the error handler, CORS, then the hardening (src/http/hardening.ts) in its own order.

export type EdgeOptions = {
  config: Config;
  lifecycle: Lifecycle;
  authentication: RequestAuthentication;
  rateLimitStore?: RateLimitStore | undefined;
  tracing?: Tracing | undefined;
};

export async function registerEdge(app: FastifyInstance, { config, tracing, ...hardening }: EdgeOptions): Promise<AdmissionStats> {
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
  return registerHardening(app, { config, ...hardening });
}
