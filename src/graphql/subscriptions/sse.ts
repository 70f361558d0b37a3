import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Authentication } from '../../auth/authenticator.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { badRequest, rateLimited, unauthenticated, unavailable } from '../../core/errors.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import { ambientFromForeignOrigin } from '../../http/ambient-credentials.ts';
import type { RequestAuthentication } from '../../http/authentication.ts';
import { dedicateConnection } from '../../http/dedicated-connection.ts';
import { endUnanswered, spreadOver } from '../../http/drain.ts';
import { RETRY_AFTER_SECONDS } from '../../http/errors.ts';
import type { EventStreamIds, RequestContext } from '../../modules/context.ts';
import { refuseAsCsrf, refusedAsCsrfOnStream } from '../csrf.ts';
import { stoppable, type Stoppable } from './iterators.ts';
import { countedAs } from './per-caller.ts';
import { SETUP_GRACE_MS, whenLapsed, type SubscribePayload, type SubscriptionService } from './service.ts';

// Live lessons over Server-Sent Events (docs/contract.md, Live lessons): graphql-sse's protocol in its
// distinct-connections mode at /graphql/stream, written here (README.md, Layout), one subscription per stream,
// for networks that drop WebSockets. An HTTP request like any other: its caller is known, or refused, first.

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

const TRANSPORT = 'Server-Sent Events';
const EVENT_STREAM = 'text/event-stream';
const JSON_TYPE = 'application/json; charset=utf-8';
/** An SSE comment: clients ignore it, proxies see traffic. Also the stream's first message, at once: some browsers show a stream only once something came. */
const KEEP_ALIVE_COMMENT = ':\n\n';
/** graphql-sse's last message of a distinct connection's stream. */
const COMPLETE = 'event: complete\ndata:\n\n';
/**
 * graphql-sse's headers of a distinct connection's stream, but that its connection closes with it (it is the
 * stream's alone: dedicateConnection); proxies that buffer answers (nginx) pass it on as it is written.
 */
const STREAM_HEADERS = {
  connection: 'close',
  'cache-control': 'no-cache',
  'content-encoding': 'none',
  'content-type': 'text/event-stream; charset=utf-8',
  'x-accel-buffering': 'no',
};

const anonymous: Pick<Authentication, 'viewer' | 'callerKey' | 'expiresAt'> = {
  viewer: { kind: 'anonymous' },
  callerKey: undefined,
  expiresAt: undefined,
};

/** The streams of one server, and whether it is closing. */
type Streams = {
  /** Those still open, for shutdown and the metrics. */
  open: Set<EventStream>;
  /** Set as the server begins to close (its preClose hook). */
  closing: boolean;
};

/** The /graphql/stream handler (registered by src/graphql/route.ts), and how many streams are open. */
export function createServerSentEvents(
  app: FastifyInstance,
  options: ServerSentEventsOptions,
): { handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>; connections: () => number } {
  const streams: Streams = { open: new Set(), closing: false };
  endStreamsAtClose(app, options, streams);

  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const admitted = await admitStream(request, reply, options, streams);
    if ('answered' in admitted) return admitted.answered;
    return runStream(request, reply, admitted, options, streams);
  }

  return { handler, connections: () => streams.open.size };
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
      // Its connection closes with the response (connection: close); cut if it has not SETUP_GRACE_MS later.
      const { raw } = stream.reply;
      const connection = raw.socket ?? raw;
      const closed = new Promise((resolve) => (raw.closed ? resolve(undefined) : raw.once('close', resolve)));
      stream.running?.stop();
      void Promise.race([closed, new Promise((resolve) => setTimeout(resolve, SETUP_GRACE_MS))]).then(() => connection.destroy());
    });
  });
}

/** Refuses a stream request with `errors` as a JSON answer, before any stream opens. */
function refuse(service: SubscriptionService, reply: FastifyReply, status: number, ...errors: GraphQLError[]) {
  return reply
    .code(status)
    .type(JSON_TYPE)
    .send({ errors: service.format(errors) });
}

const tryLater = (service: SubscriptionService, reply: FastifyReply) =>
  refuse(service, reply.header('retry-after', RETRY_AFTER_SECONDS), 503, unavailable());

/** A request let through to open its stream: who asks, and what. */
type Admitted = { viewer: Viewer; expiresAt: Date | undefined; fields: SubscribePayload };

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
  if (reply.raw.closed) slot.end();
  else reply.raw.on('close', () => slot.end());
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
  return { viewer, expiresAt, fields };
}

/**
 * What graphql-sse's distinct connections mode refuses with 400 before it runs anything: variables or
 * extensions that are no JSON object (the query's checks are the service's).
 */
function malformed(fields: SubscribePayload): string | undefined {
  const notObject = (value: unknown) => value != null && (typeof value !== 'object' || Array.isArray(value));
  if (notObject(fields.variables)) return 'Invalid variables';
  if (notObject(fields.extensions)) return 'Invalid extensions';
  return undefined;
}

/**
 * Runs the admitted request's subscription and opens its stream: refused before it runs, a JSON answer;
 * refused as it starts (its access check), a stream of that one result; else a stream of its events.
 */
async function runStream(
  request: FastifyRequest,
  reply: FastifyReply,
  { viewer, expiresAt, fields }: Admitted,
  { service, keepAliveMs }: ServerSentEventsOptions,
  streams: Streams,
) {
  const invalid = malformed(fields);
  if (invalid) return refuse(service, reply, 400, badRequest(invalid));
  const prepared = service.prepare(fields, viewer, TRANSPORT);
  if (Array.isArray(prepared)) return refuse(service, reply, 400, ...prepared);
  // Ids in and out: a Last-Event-ID resumes the subscription, each event's id goes out as `id:`.
  const lastEventId = [request.headers['last-event-id']].flat().join(', ');
  const ids: EventStreamIds = { lastEventId: lastEventId.trim() === '' ? undefined : lastEventId, eventId: undefined };
  (prepared.contextValue as RequestContext).eventStream = ids;

  const stream = new EventStream(request, reply, ids, service.format, streams);
  const result = service.started(String(request.id), prepared, viewer, await service.subscribe(prepared));
  if (!(Symbol.asyncIterator in result))
    return stream.start(
      (async function* refused() {
        yield result;
      })(),
      keepAliveMs,
    );
  const running = (stream.running = stoppable(result));
  // A JWT's stream ends when the JWT does, as its socket would (docs/identity.md).
  if (expiresAt) stream.stopLapse = whenLapsed(expiresAt, () => running.stop({ errors: [unauthenticated('The token has expired')] }));
  // Set up as the server began to close, or after its client went away: it ends at once.
  if (streams.closing || reply.raw.closed) running.stop();
  return stream.start(running, keepAliveMs);
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
 * An open stream, from before its subscription runs to its connection's close. It writes the events in
 * graphql-sse's distinct connections format, each asked of the subscription only once the one before is
 * written (a slow reader's backlog stays in its bounded EventHub queue), and a comment every keep-alive; a
 * stream that could not take the last comment in that time is cut, as a socket that does not answer a ping
 * is. A class, not closures and async functions: it lasts as long as its stream (docs/performance.md).
 */
class EventStream {
  /** The running subscription; its stop() ends it: `complete` is sent (after `last`, when given), then the response ends. */
  running?: Stoppable<ExecutionResult>;
  /** Cancels the end at the JWT's expiry. */
  stopLapse?: () => void;
  private events?: AsyncIterableIterator<ExecutionResult>;
  private commentPending = false;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly request: FastifyRequest,
    readonly reply: FastifyReply,
    private readonly ids: EventStreamIds,
    private readonly format: SubscriptionService['format'],
    private readonly streams: Streams,
  ) {
    streams.open.add(this);
    reply.raw.on('close', () => this.closed());
  }

  /** Opens the response and writes `events` as they come, then `complete`. */
  start(events: AsyncIterableIterator<ExecutionResult>, keepAliveMs: number): FastifyReply {
    const { raw } = this.reply;
    this.events = events;
    this.reply.hijack();
    if (raw.closed) return (void this.closed(), this.reply);
    raw.writeHead(200, 'OK', { ...(this.reply.getHeaders() as OutgoingHttpHeaders), ...STREAM_HEADERS });
    flattenHeaderBlock(raw);
    this.keepAlive = setInterval(keepStreamAlive, keepAliveMs, this);
    raw.write(KEEP_ALIVE_COMMENT);
    dedicateConnection(this.request.raw, raw);
    this.pull();
    return this.reply;
  }

  /** A comment, unless the last has not been written yet: then the stream is cut. */
  comment(): void {
    const { raw } = this.reply;
    if (this.commentPending) return void raw.destroy();
    this.commentPending = true;
    raw.write(KEEP_ALIVE_COMMENT, () => (this.commentPending = false));
  }

  private pull(): void {
    this.events!.next().then(
      (step) => this.write(step),
      (error: unknown) => {
        // The stream is open: there is no answer left to give, only the stream to cut.
        this.request.log.error({ err: error }, 'unexpected error in an event stream');
        this.reply.raw.destroy();
      },
    );
  }

  /** Writes what the subscription gave: an event (then asks for the next), or its end. */
  private write(step: IteratorResult<ExecutionResult>): void {
    const { raw } = this.reply;
    if (raw.destroyed || raw.writableEnded) return;
    if (step.done) {
      clearInterval(this.keepAlive);
      return void raw.end(COMPLETE);
    }
    const result = step.value;
    const id = this.ids.eventId;
    this.ids.eventId = undefined;
    // Sent as JSON: formatted errors in place of GraphQLErrors, as their toJSON() would give.
    const data = JSON.stringify(result.errors ? { ...result, errors: this.format(result.errors) } : result);
    raw.write(`event: next\n${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`, (error) => {
      if (!error) this.pull();
    });
  }

  /** The response is done or its connection gone: the subscription ends. */
  private closed(): void {
    this.streams.open.delete(this);
    clearInterval(this.keepAlive);
    this.stopLapse?.();
    void this.events?.return?.();
  }
}

const keepStreamAlive = (stream: EventStream) => stream.comment();

/**
 * Node keeps the header block it wrote for as long as the response lasts (`_header`, which `headersSent`
 * reads), built by concatenation: a tree of ~80 strings, 2.6 kB per open stream. Running a regular expression
 * on it makes V8 flatten it in place into one string (docs/performance.md, Over Server-Sent Events).
 */
function flattenHeaderBlock(raw: FastifyReply['raw']): void {
  const { _header: block } = raw as unknown as { _header?: unknown };
  if (typeof block === 'string') /^/.test(block);
}
