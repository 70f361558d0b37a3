import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { NOT_FOUND_MESSAGE, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE, type FieldErrors } from '../core/errors.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';

// The one error envelope of every HTTP answer that is not GraphQL's own (docs/contract.md, Errors): an
// error code → its HTTP status and `meta` body, and the HTTP-level failures in the same shape.

export type MetaStatus =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'payload_too_large'
  | 'conflict'
  | 'invalid'
  | 'rate_limited'
  | 'error'
  | 'unavailable';

export { RETRY_AFTER_SECONDS };

export type ErrorEnvelope = { meta: { status: MetaStatus; message: string; errors: FieldErrors | null } };

const byCode: Record<string, [number, MetaStatus]> = {
  BAD_REQUEST: [400, 'bad_request'],
  UNAUTHENTICATED: [401, 'unauthorized'],
  FORBIDDEN: [403, 'forbidden'],
  NOT_FOUND: [404, 'not_found'],
  PAYLOAD_TOO_LARGE: [413, 'payload_too_large'],
  CONFLICT: [409, 'conflict'],
  BAD_USER_INPUT: [422, 'invalid'],
  RATE_LIMITED: [429, 'rate_limited'],
  UNAVAILABLE: [503, 'unavailable'],
};

const byStatus = Object.fromEntries(Object.values(byCode).map(([status, meta]) => [status, meta])) as Record<number, MetaStatus>;

export function envelope(status: MetaStatus, message: string, errors: FieldErrors | null = null): ErrorEnvelope {
  return { meta: { status, message, errors } };
}

/** A GraphQL error as the REST clients knew it. */
export function fromGraphQLError(error: { message: string; extensions?: Record<string, unknown> }): {
  status: number;
  body: ErrorEnvelope;
} {
  const known = byCode[String(error.extensions?.code)];
  if (!known) return { status: 500, body: envelope('error', 'Something went wrong on our side') };
  const [status, meta] = known;
  const fields = (error.extensions?.fields as FieldErrors | undefined) ?? null;
  return { status, body: envelope(meta, status === 404 ? NOT_FOUND_MESSAGE : error.message, fields) };
}

/** An HTTP-level failure (body too large, unknown path, ...) in the same envelope. */
export function fromHttpStatus(status: number, message: string): ErrorEnvelope {
  const meta = byStatus[status] ?? (status >= 500 ? 'error' : 'bad_request');
  return envelope(
    meta,
    status === 404 ? NOT_FOUND_MESSAGE : status >= 500 && status !== 503 ? 'Something went wrong on our side' : message,
  );
}

/** What a connection is answered when its request never becomes one Fastify can route (Node's codes). */
const clientErrors: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time (HEADERS_TIMEOUT, REQUEST_TIMEOUT)'],
  HPE_HEADER_OVERFLOW: [431, `The request headers are larger than ${maxHeaderSize} bytes`],
};

/**
 * Fastify's `clientErrorHandler`: a request too slow to arrive (408), with headers over Node's limit (431)
 * or that is not HTTP (400) is answered in the same envelope, then its connection closed, as Node does. No
 * route was found for it, so this is the one answer GraphQL and REST clients share.
 */
export function answerClientError(error: { code?: string }, socket: Socket): void {
  // A connection reset leaves no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = clientErrors[error.code ?? ''] ?? [400, 'The request is not valid HTTP'];
  const body = JSON.stringify(fromHttpStatus(status, message));
  // As Node's own handler: never in the middle of an answer already being written on this connection.
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !answering?.headersSent)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}

/**
 * The one handler for errors outside GraphQL's own answers (a body too large or unreadable, the rate limit,
 * the database down while a route runs, anything unexpected), on every route: the envelope above.
 */
export function httpErrorHandler(bodyLimit: number) {
  return (error: FastifyError | (Error & { statusCode?: number }), request: FastifyRequest, reply: FastifyReply) => {
    if (isDatabaseUnavailable(error))
      return reply.code(503).header('retry-after', RETRY_AFTER_SECONDS).send(fromHttpStatus(503, UNAVAILABLE_MESSAGE));
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'unexpected error');
    return reply.code(status).send(fromHttpStatus(status, status === 413 ? `The body is larger than ${bodyLimit} bytes` : error.message));
  };
}
