import { LogController, type FastifyHttpOptions, type FastifyReply } from 'fastify';
import type { Server } from 'node:http';
import type { DestinationStream } from 'pino';
import type { Config } from '../config.ts';
import type { Tracing } from '../telemetry/tracing.ts';
import { answerClientError, fromHttpStatus } from './errors.ts';

// The options Fastify is built with: its log lines, its limits and timeouts (docs/operations.md, Connections
// and timeouts), and the answers to requests refused before any route or hook (too slow, malformed, bad URL).

export type ServerOptionsInput = {
  logStream?: DestinationStream | undefined;
  tracing?: Tracing | undefined;
  /** The longest path parameter routed: the longest uid the data model allows (docs/contract.md, REST routes). */
  maxParamLength: number;
};

export function serverOptions(config: Config, { logStream, tracing, maxParamLength }: ServerOptionsInput) {
  return {
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
    // frameworkErrors below answers it 404 (docs/contract.md, REST routes).
    routerOptions: { maxParamLength },
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
  } satisfies FastifyHttpOptions<Server>;
}
