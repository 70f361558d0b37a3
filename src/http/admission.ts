import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromHttpStatus } from './errors.ts';
import { createGate } from './gate.ts';

// Admission control for large bodies (docs/operations.md, Large bodies): a request's memory grows with its
// body, so the bodies worked on at once share a budget of bytes, and the next waits in a bounded queue for a
// bounded time. It waits in `preParsing`, before Fastify reads the body: the unread body stays in the socket.

export type AdmissionOptions = {
  /** Body bytes worked on at once. */
  budget: number;
  /** Requests that may wait for room; more are refused at once. */
  queue: number;
  /** How long a request may wait before it is refused. */
  queueTimeoutMs: number;
  /** Smaller bodies are not counted: their memory is small, and they never wait behind a large one. */
  threshold: number;
  /** A body of unknown length (chunked) counts as this; one declared larger is Fastify's 413 at once. */
  bodyLimit: number;
};

/** What a request's body counts for: its declared length when large, the body limit when undeclared. */
function weightOf(request: FastifyRequest, { threshold, bodyLimit }: Pick<AdmissionOptions, 'threshold' | 'bodyLimit'>): number {
  const declared = request.headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    return length > threshold && length <= bodyLimit ? length : 0;
  }
  return request.headers['transfer-encoding'] !== undefined ? bodyLimit : 0;
}

/** What the queue holds now, and the requests refused so far (for the metrics, src/metrics/metrics.ts). */
export type AdmissionStats = {
  waiting(): number;
  bytesInUse(): number;
  refused: { queueFull: number; timedOut: number };
};

/** Adds the `preParsing` hook; `exempt` requests (the probes) are never counted nor queued. */
export function registerAdmission(
  app: FastifyInstance,
  options: AdmissionOptions,
  exempt: (request: FastifyRequest) => boolean,
): AdmissionStats {
  const gate = createGate(options.budget, options.queue);
  const stats: AdmissionStats = { waiting: gate.waiting, bytesInUse: gate.used, refused: { queueFull: 0, timedOut: 0 } };
  const retryAfter = String(Math.max(1, Math.ceil(options.queueTimeoutMs / 1_000)));
  const refuse = (reply: FastifyReply, reason: keyof AdmissionStats['refused']) => {
    // A client that left while it waited was not refused: it is gone.
    if (!reply.raw.closed) stats.refused[reason] += 1;
    return reply
      .code(503)
      .header('retry-after', retryAfter)
      .send(fromHttpStatus(503, 'The server is busy with other large requests, try again shortly'));
  };

  // Most bodies are small: they go on at once, without a promise (a hook that returns none calls `done`).
  app.addHook('preParsing', (request, reply, payload, done) => {
    // Never more than the whole budget, so that any body can be admitted (the config keeps it so too).
    const weight = Math.min(weightOf(request, options), options.budget);
    if (weight === 0 || exempt(request)) return done(null, payload);
    const ticket = gate.enter(weight, options.queueTimeoutMs);
    if (!ticket) return void refuse(reply, 'queueFull');
    // 'close' comes once the answer is sent or the connection is gone, whichever is first; a connection
    // gone before the listener was added gives its room back at once.
    reply.raw.once('close', ticket.leave);
    if (reply.raw.closed) ticket.leave();
    void ticket.admitted.then((admitted) => (admitted ? done(null, payload) : void refuse(reply, 'timedOut')));
  });
  return stats;
}
