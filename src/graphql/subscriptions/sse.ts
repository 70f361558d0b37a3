import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ExecutionResult, GraphQLError } from 'graphql';
import { createHandler, type Handler, type ResponseInit } from 'graphql-sse';
import type { Authentication } from '../../auth/authenticator.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { badRequest, rateLimited, unauthenticated, unavailable } from '../../core/errors.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import { ambientFromForeignOrigin } from '../../http/ambient-credentials.ts';
import type { RequestAuthentication } from '../../http/authentication.ts';
import { endUnanswered, spreadOver } from '../../http/drain.ts';
import { RETRY_AFTER_SECONDS } from '../../http/errors.ts';
import type { EventStreamIds, RequestContext } from '../../modules/context.ts';
import { refuseAsCsrf, refusedAsCsrfOnStream } from '../csrf.ts';
import { stoppable } from './iterators.ts';
import { countedAs } from './per-caller.ts';
import { SETUP_GRACE_MS, whenLapsed, type SubscribePayload, type SubscriptionService } from './service.ts';

// Live lessons over Server-Sent Events (docs/contract.md, Live lessons): graphql-sse's protocol in its
// distinct-connections mode at /graphql/stream, one subscription per stream, for networks that drop
// WebSockets. An HTTP request like any other: its caller is known, or refused, before the stream opens.

export type ServerSentEventsOptions = {
  service: SubscriptionService;
  /** The request's caller, asked once per request (src/http/authentication.ts). */
  authentication: RequestAuthentication;
  /** Origins whose requests may be authenticated by cookies, beside the gateway's own (CORS_ORIGINS). */
  corsOrigins: readonly string[];
  /** SUBSCRIPTION_KEEP_ALIVE: a stream gets a comment this often, so that proxies see it is alive. */
  keepAliveMs: number;
  /** SHUTDOWN_SPREAD: the drain ends the open streams spread over this. */
  shutdownSpreadMs: number;
};

/** The one stream a request opens: who asked, and, once its subscription runs, how to end it. */
type Stream = {
  viewer: Viewer;
  expiresAt: Date | undefined;
  reply: FastifyReply;
  /** What the request asks, read once (operationFields): the trusted documents and the limits check it, and it runs. */
  fields: SubscribePayload;
  /** Settles when the response is done, or its connection gone; `gone` is true from then on. */
  closed: Promise<void>;
  gone: boolean;
  /** Ends the running subscription: `complete` is sent (after `last`, when given), then the response ends. */
  stop?: (last?: ExecutionResult) => void;
  /** Events handed to graphql-sse and not yet written to the socket (at most one: see onNext). */
  unwritten: number;
  written?: () => void;
  /** The Last-Event-ID asked with, and the id of the event being resolved (docs/contract.md, Live lessons). */
  ids: EventStreamIds;
  /** The `id:` of the `next` message being written, when it carries an event. */
  nextId?: string | undefined;
};

const TRANSPORT = 'Server-Sent Events';
const EVENT_STREAM = 'text/event-stream';
const JSON_TYPE = 'application/json; charset=utf-8';
/** An SSE comment: clients ignore it, proxies see traffic. */
const KEEP_ALIVE_COMMENT = ':\n\n';
/** How graphql-sse begins an event's message: its `id:` line goes after it. */
const NEXT = 'event: next\n';

const anonymous: Pick<Authentication, 'viewer' | 'callerKey' | 'expiresAt'> = {
  viewer: { kind: 'anonymous' },
  callerKey: undefined,
  expiresAt: undefined,
};

/** The streams of one server, and whether it is closing. */
type Streams = {
  /** Each request's stream, for graphql-sse's hooks (which are handed the request). */
  of: WeakMap<FastifyRequest, Stream>;
  /** Those still open, for shutdown and the metrics. */
  open: Set<Stream>;
  /** Set as the server begins to close (its preClose hook). */
  closing: boolean;
};

/** The /graphql/stream handler (registered by src/graphql/route.ts), and how many streams are open. */
export function createServerSentEvents(
  app: FastifyInstance,
  options: ServerSentEventsOptions,
): { handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>; connections: () => number } {
  const streams: Streams = { of: new WeakMap(), open: new Set(), closing: false };
  const handleProtocol = protocolHandler(options.service, streams);
  endStreamsAtClose(app, options, streams);

  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const admitted = await admitStream(request, reply, options, streams);
    if ('answered' in admitted) return admitted.answered;
    return runStream(request, reply, admitted, handleProtocol, options.keepAliveMs, streams);
  }

  return { handler, connections: () => streams.open.size };
}

/** graphql-sse's handler, its hooks reading each request's stream from `streams`. */
function protocolHandler(service: SubscriptionService, streams: Streams): Handler<FastifyRequest, undefined> {
  return createHandler<FastifyRequest, undefined, RequestContext>({
    // Distinct connections only: no request reserves a stream for later operations.
    authenticate: () => null,
    // What runs is what was checked: the request's fields as operationFields read them, which are all
    // graphql-sse was handed; the service applies the trusted documents and the limits to them.
    onSubscribe: (request) => {
      const stream = streams.of.get(request.raw)!;
      const prepared = service.prepare(stream.fields, stream.viewer, TRANSPORT);
      if (!Array.isArray(prepared)) {
        // Ids in and out: a Last-Event-ID resumes the subscription, each event's id goes out as `id:`.
        (prepared.contextValue as RequestContext).eventStream = stream.ids;
        return prepared as typeof prepared & { contextValue: RequestContext };
      }
      return [
        JSON.stringify({ errors: service.format(prepared) }),
        { status: 400, statusText: 'Bad Request', headers: { 'content-type': JSON_TYPE } },
      ];
    },
    // service.prepare validated it (once per text, under the HTTP limits).
    validate: () => [],
    subscribe: service.subscribe,
    onOperation: (_context, request, args, result) => {
      const stream = streams.of.get(request.raw)!;
      const started = service.started(
        String(request.raw.id),
        args,
        stream.viewer,
        result as AsyncIterableIterator<ExecutionResult> | ExecutionResult,
      );
      if (!(Symbol.asyncIterator in started)) return started;
      const iterator = stoppable(started);
      const stop = (last?: ExecutionResult) => iterator.stop(last);
      stream.stop = stop;
      // A JWT's stream ends when the JWT does, as its socket would (docs/identity.md).
      if (stream.expiresAt) {
        const stopLapse = whenLapsed(stream.expiresAt, () => stop({ errors: [unauthenticated('The token has expired')] }));
        void stream.closed.then(stopLapse);
      }
      // Set up as the server began to close, or after its client went away: it ends at once.
      if (streams.closing || stream.gone) stop();
      return iterator;
    },
    onNext: async (_context, request, result) => {
      // graphql-sse queues events without a bound: the next waits until the last is written, so that a slow
      // reader's backlog stays in its EventHub queue, which ends it 256 events behind (src/core/event-hub.ts).
      const stream = streams.of.get(request.raw)!;
      while (stream.unwritten > 0) await new Promise<void>((resolve) => (stream.written = resolve));
      stream.unwritten += 1;
      stream.nextId = stream.ids.eventId;
      stream.ids.eventId = undefined;
      // Sent as JSON: formatted errors in place of GraphQLErrors, as their toJSON() would give.
      return result.errors ? { ...result, errors: service.format(result.errors) as unknown as GraphQLError[] } : undefined;
    },
  });
}

/**
 * At shutdown (src/main.ts): subscriptions being set up finish, then every stream ends with `complete`,
 * and its response and connection with it (cut if it has not ended SETUP_GRACE_MS later), spread over
 * SHUTDOWN_SPREAD (src/http/drain.ts). Not awaited, so that the WebSockets' closes are spread over the same
 * time: the HTTP server waits for the streams' connections.
 */
function endStreamsAtClose(app: FastifyInstance, { service, shutdownSpreadMs }: ServerSentEventsOptions, streams: Streams): void {
  app.addHook('preClose', async () => {
    streams.closing = true;
    await service.settled(SETUP_GRACE_MS);
    void spreadOver([...streams.open], shutdownSpreadMs, (stream) => {
      // Its connection, not the response: once the response has ended, a kept-alive connection would
      // wait idle for KEEP_ALIVE_TIMEOUT (the server closes the idle ones only as it begins to close).
      const connection = stream.reply.raw.socket ?? stream.reply.raw;
      stream.stop?.();
      void Promise.race([stream.closed, new Promise((resolve) => setTimeout(resolve, SETUP_GRACE_MS))]).then(() => connection.destroy());
    });
  });
}

/** Refuses a stream request with `error` as a JSON answer, before any stream opens. */
function refuse(service: SubscriptionService, reply: FastifyReply, status: number, error: GraphQLError) {
  return reply
    .code(status)
    .type(JSON_TYPE)
    .send({ errors: service.format([error]) });
}

const tryLater = (service: SubscriptionService, reply: FastifyReply) =>
  refuse(service, reply.header('retry-after', RETRY_AFTER_SECONDS), 503, unavailable());

/** A request let through to open its stream: who asks, what, and when its connection closes. */
type Admitted = { viewer: Viewer; expiresAt: Date | undefined; fields: SubscribePayload; closed: Promise<void> };

/** The checks before a stream opens: what is asked, by whom, and the caller's slot; or what was answered instead. */
async function admitStream(
  request: FastifyRequest,
  reply: FastifyReply,
  { service, authentication, corsOrigins }: ServerSentEventsOptions,
  streams: Streams,
): Promise<Admitted | { answered: unknown }> {
  if (!acceptsEventStream(request.headers.accept))
    return {
      answered: refuse(
        service,
        reply,
        406,
        badRequest(`Send Accept: ${EVENT_STREAM}: /graphql/stream serves graphql-sse's distinct connections mode`),
      ),
    };
  if (refusedAsCsrfOnStream(request, corsOrigins)) return { answered: refuseAsCsrf(reply) };
  const fields = operationFields(request);
  if ('refused' in fields) return { answered: refuse(service, reply, fields.refused.status, badRequest(fields.refused.message)) };
  // Listened for before the awaited authentication (and the client may have gone during the rate limit's):
  // a client gone meanwhile takes no slot, and opens no stream.
  const slot = service.callers.slot();
  const closed = reply.raw.closed ? Promise.resolve() : new Promise<void>((resolve) => reply.raw.once('close', resolve));
  void closed.then(() => slot.end());
  let known: Authentication;
  try {
    known = await authentication.of(request);
  } catch (error) {
    if (isDatabaseUnavailable(error)) return { answered: tryLater(service, reply) };
    throw error;
  }
  // Ambient credentials (cookies, HTTP Basic) count only from an origin that may use them, as on a WebSocket.
  const { viewer, callerKey, expiresAt } = ambientFromForeignOrigin(request, known, corsOrigins) ? anonymous : known;
  if (viewer.kind === 'invalid') {
    const challenged = reply.header('www-authenticate', 'Bearer error="invalid_token"');
    return { answered: refuse(service, challenged, 401, unauthenticated('The access token is invalid, expired or revoked')) };
  }
  // Asked for as the drain began (src/http/drain.ts): its connection is ended, so that the client reconnects.
  if (streams.closing) return { answered: endUnanswered(request, reply) };
  if (viewer.kind === 'unavailable') return { answered: tryLater(service, reply) };
  const key = countedAs(viewer, callerKey, request.ip);
  if (key && !slot.take(key))
    return { answered: refuse(service, reply, 429, rateLimited('Too many subscription connections for this caller')) };
  if (slot.ended) return { answered: reply };
  return { viewer, expiresAt, fields, closed };
}

/** Opens the admitted request's stream: its subscription runs through graphql-sse, and its events are written. */
async function runStream(
  request: FastifyRequest,
  reply: FastifyReply,
  { viewer, expiresAt, fields, closed }: Admitted,
  handleProtocol: Handler<FastifyRequest, undefined>,
  keepAliveMs: number,
  streams: Streams,
) {
  const lastEventId = [request.headers['last-event-id']].flat().join(', ');
  const ids = { lastEventId: lastEventId.trim() === '' ? undefined : lastEventId, eventId: undefined };
  const stream: Stream = { viewer, expiresAt, reply, fields, closed, gone: false, unwritten: 0, ids };
  streams.of.set(request, stream);
  streams.open.add(stream);
  void closed.then(() => {
    stream.gone = true;
    streams.open.delete(stream);
    // An event waiting to be written never will be.
    stream.unwritten = 0;
    stream.written?.();
  });
  // graphql-sse is handed only the fields read above, as a JSON POST (it reads a stream's request by its
  // Accept being exactly the event stream's type): it cannot read the request another way than they were.
  const [body, init] = await handleProtocol({
    method: 'POST',
    url: '/graphql/stream',
    headers: { get: (name) => ({ accept: EVENT_STREAM, 'content-type': 'application/json' })[name.toLowerCase()] ?? null },
    body: { ...fields, query: typeof fields.query === 'string' ? fields.query : '' },
    raw: request,
    context: undefined,
  });
  if (typeof body === 'string' || body === null)
    return reply
      .code(init.status)
      .headers(init.headers ?? {})
      .send(body ?? undefined);
  try {
    await sendEvents(stream, body, init, keepAliveMs);
  } catch (error) {
    // The stream is open: there is no answer left to give, only the stream to cut.
    request.log.error({ err: error }, 'unexpected error in an event stream');
    reply.raw.destroy();
  }
  return reply;
}

/** Whether an Accept header lists the event stream's type (`text/event-stream`, perhaps among others), not refused with q=0. */
export function acceptsEventStream(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((range) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    return type === EVENT_STREAM && !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter));
  });
}

/** The fields of a GraphQL request over HTTP (GraphQL over HTTP, and the persisted documents' `documentId`). */
const FIELDS = ['query', 'documentId', 'operationName', 'variables', 'extensions'] as const;

/**
 * What a stream request asks, read once, the one way (docs/trusted-documents.md, Event streams): a GET's
 * query string (the target's `#…` is no part of it; a field given twice is refused; `variables` and
 * `extensions` are JSON text), or a POST's JSON object body (its media type exactly application/json, else 415).
 */
export function operationFields(request: FastifyRequest): SubscribePayload | { refused: { status: number; message: string } } {
  const refused = (status: number, message: string) => ({ refused: { status, message } });
  if (request.method !== 'GET') {
    const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (mediaType !== 'application/json') return refused(415, 'Send a stream by POST as application/json, or by GET');
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return refused(400, 'The body must be a JSON object');
    const given = body as Record<string, unknown>;
    return Object.fromEntries(FIELDS.filter((name) => given[name] !== undefined).map((name) => [name, given[name]]));
  }
  const params = new URL(request.url, 'http://gateway.invalid').searchParams;
  const fields: Record<string, unknown> = {};
  for (const name of FIELDS) {
    const [value, ...more] = params.getAll(name);
    if (more.length > 0) return refused(400, `\`${name}\` is given more than once`);
    if (value === undefined) continue;
    if (name !== 'variables' && name !== 'extensions') fields[name] = value;
    else
      try {
        fields[name] = JSON.parse(value);
      } catch {
        return refused(400, `\`${name}\` is not JSON`);
      }
  }
  return fields;
}

/**
 * Writes the stream's events as graphql-sse yields them, each once the last is written, and a comment every
 * `keepAliveMs`. A stream that could not take the last comment in that time is cut, as a socket that does not
 * answer a ping is: its reader is gone or stopped. When the client goes away graphql-sse ends the subscription.
 */
async function sendEvents(stream: Stream, events: AsyncGenerator<string, void>, init: ResponseInit, keepAliveMs: number): Promise<void> {
  const { reply } = stream;
  const raw = reply.raw;
  // Proxies that buffer answers (nginx) pass this one on as it is written.
  const headers = { ...reply.getHeaders(), ...init.headers, 'x-accel-buffering': 'no' } as OutgoingHttpHeaders;
  raw.writeHead(init.status, init.statusText, headers);
  flattenHeaderBlock(raw);
  const write = (chunk: string) =>
    new Promise<boolean>((resolve) => {
      if (raw.destroyed || raw.writableEnded) return resolve(false);
      raw.write(chunk, (error) => resolve(!error));
    });
  const gone = () => void events.return();
  raw.once('close', gone);
  let commentPending = false;
  const keepAlive = setInterval(() => {
    if (commentPending) return void raw.destroy();
    commentPending = true;
    void write(KEEP_ALIVE_COMMENT).then(() => (commentPending = false));
  }, keepAliveMs);
  let first = true;
  try {
    for await (const chunk of events) {
      // graphql-sse's own comment every 12 s is left out: ours go out every SUBSCRIPTION_KEEP_ALIVE. Its first,
      // at once, is kept: some browsers show a stream only once something came.
      if (chunk === KEEP_ALIVE_COMMENT && !first) continue;
      first = false;
      const id = chunk.startsWith(NEXT) ? stream.nextId : undefined;
      if (!(await write(id === undefined ? chunk : `${NEXT}id: ${id}\n${chunk.slice(NEXT.length)}`))) break;
      if (chunk.startsWith(NEXT)) {
        stream.unwritten -= 1;
        stream.written?.();
      }
    }
  } finally {
    clearInterval(keepAlive);
    raw.off('close', gone);
  }
  if (!raw.destroyed) await new Promise<void>((resolve) => raw.end(resolve));
}

/**
 * Node keeps the header block it wrote for as long as the response lasts (`_header`, which `headersSent`
 * reads), built by concatenation: a tree of ~80 strings, 2.6 kB per open stream. Running a regular expression
 * on it makes V8 flatten it in place into one string (docs/performance.md, Over Server-Sent Events).
 */
function flattenHeaderBlock(raw: FastifyReply['raw']): void {
  const { _header: block } = raw as unknown as { _header?: unknown };
  if (typeof block === 'string') /^/.test(block);
}
