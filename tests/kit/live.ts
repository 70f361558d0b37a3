import { request as httpRequest, type Agent, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import type { FormattedExecutionResult } from 'graphql';
import { createClient as createStreamClient, type Client as StreamClient } from 'graphql-sse';
import { createClient, type Client } from 'graphql-ws';
import type pg from 'pg';
import WebSocket from 'ws';
import { LISTENER_APPLICATION_NAME } from '../../src/db/listener.ts';
import type { Lifecycle } from '../../src/http/drain.ts';
import { documentText, startGateway, type Gateway, type GatewayOptions } from './gateway.ts';
import { graphql } from './gql/index.ts';
import type { FollowSubscription } from './gql/graphql.ts';

// Live lessons as a client sees them: a gateway listening on a real port, and graphql-ws clients (a socket)
// and graphql-sse clients (an event stream per subscription, with Node's fetch) on it.

/** A classroom activity's live events: the typed document (its answers' type), and its text, which graphql-ws clients send. */
export const FOLLOW = graphql(`
  subscription Follow($id: ID!) {
    lessonEvents(classroomActivityId: $id) { kind classroomActivityId locked pinned completed followUpUrl at }
  }`);
export const LESSON_EVENTS = documentText(FOLLOW);

/** One event of FOLLOW. */
export type LessonEvent = FollowSubscription['lessonEvents'];

export type ListeningGateway = Gateway & {
  wsUrl: string;
  /** Where event streams are served: http://…/graphql/stream */
  streamUrl: string;
  /** The server's log lines so far, parsed. */
  logs(): Record<string, any>[];
  /** Resolves once the log holds `count` lines with this message. */
  waitForLog(message: string, count?: number): Promise<void>;
};

/**
 * Cuts the listening connection of the gateways on `database` (the admin client's own by default), as a
 * network fault would; they notice and reconnect. How many connections were cut.
 */
export async function cutListeners(admin: pg.Client, database?: string): Promise<number> {
  const { rowCount } = await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = coalesce($2, current_database())`,
    [LISTENER_APPLICATION_NAME, database ?? null],
  );
  return rowCount ?? 0;
}

/** A gateway on its own database, listening on a free port of 127.0.0.1, whose logs the test reads. */
export async function startListeningGateway(
  env: Record<string, string> = {},
  { lifecycle, ...options }: GatewayOptions & { lifecycle?: Lifecycle } = {},
): Promise<ListeningGateway> {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const gateway = await startGateway({ LOG_LEVEL: 'info', ...env }, { logStream, ...(lifecycle ? { lifecycle } : {}) }, options);
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gateway.app.server.address() as { port: number };
  const logs = () => lines.map((line) => JSON.parse(line) as Record<string, any>);
  return Object.assign(gateway, {
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
    streamUrl: `http://127.0.0.1:${port}/graphql/stream`,
    logs,
    waitForLog: (message: string, count = 1) => waitFor(() => logs().filter((line) => line.msg === message).length >= count, message),
  });
}

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export type Follower<C extends { dispose(): unknown } = Client> = {
  client: C;
  /** Every `next` payload received, in order. */
  results: FormattedExecutionResult<FollowSubscription, unknown>[];
  /** The events (data.lessonEvents) received, in order. */
  events(): LessonEvent[];
  /** Settles when the subscription ends: 'complete', or the error it ended with. */
  ended: Promise<{ complete: true } | { error: any }>;
  /** Resolves once `count` events arrived. */
  waitForEvents(count: number): Promise<LessonEvent[]>;
};

/** What graphql-ws's and graphql-sse's clients have alike. */
type SubscribingClient = {
  subscribe(
    request: { query: string; variables: Record<string, unknown> },
    sink: { next(value: any): void; error(error: unknown): void; complete(): void },
  ): unknown;
  dispose(): unknown;
};

/** `client` following one classroom activity. */
function following<C extends SubscribingClient>(client: C, classroomActivityId: string | number): Follower<C> {
  const results: FormattedExecutionResult<FollowSubscription, unknown>[] = [];
  const ended = new Promise<{ complete: true } | { error: any }>((resolve) => {
    client.subscribe(
      { query: LESSON_EVENTS, variables: { id: String(classroomActivityId) } },
      { next: (value) => void results.push(value), error: (error) => resolve({ error }), complete: () => resolve({ complete: true }) },
    );
  });
  const events = () => results.flatMap((result) => (result.data?.lessonEvents ? [result.data.lessonEvents] : []));
  return {
    client,
    results,
    events,
    ended,
    waitForEvents: async (count) => {
      await waitFor(() => events().length >= count, `${count} lesson events`);
      return events();
    },
  };
}

/** A graphql-ws client (with `token`, in connection_init) following one classroom activity. */
export function follow(
  wsUrl: string,
  classroomActivityId: string | number,
  token?: string,
  options: { closed?: (event: any) => void } = {},
): Follower {
  const client = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    on: options.closed ? { closed: options.closed } : {},
  });
  return following(client, classroomActivityId);
}

/**
 * A graphql-sse client (distinct connections, Node's fetch; with `token` as a Bearer token, and any other
 * request headers) following one classroom activity on its own event stream. A refusal before the stream
 * opens ends it with graphql-sse's NetworkError, whose `response` is the HTTP answer (`refusal`).
 */
export function followStream(
  streamUrl: string,
  classroomActivityId: string | number,
  token?: string,
  headers: Record<string, string> = {},
): Follower<StreamClient> {
  const client = createStreamClient({
    url: streamUrl,
    retryAttempts: 0,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return following(client, classroomActivityId);
}

/** The HTTP answer that refused a stream (a stream follower's `ended`): its status, headers and GraphQL errors. */
export async function refusal(ended: Follower<StreamClient>['ended']): Promise<{ status: number; body: any; headers: Headers }> {
  const end = await ended;
  const response = 'error' in end ? (end.error as { response?: Response }).response : undefined;
  if (!response) throw new Error(`the stream was not refused over HTTP: ${JSON.stringify(end)}`);
  return { status: response.status, body: await response.json().catch(() => undefined), headers: response.headers };
}

export type RawStream = {
  status: number;
  headers: IncomingHttpHeaders;
  response: IncomingMessage;
  /** Everything received so far. */
  text(): string;
  /** The events received so far (`event:`, its `id:` when it has one, and its parsed `data:`); comments left out. */
  events(): { event: string; id?: string; data: any }[];
  /** Resolves when the response has ended, or its connection is gone. */
  ended: Promise<void>;
  /** Goes away, as a closed browser tab does. */
  close(): void;
};

export type RawStreamOptions = {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  variables?: Record<string, unknown>;
  query?: string;
  /** A trusted document's id, sent beside an empty `query`. */
  documentId?: string;
  /** The connection's agent (Node's global one by default, which closes a connection idle for 5 s). */
  agent?: Agent;
};

/**
 * An event stream asked for as a browser's EventSource or a hand-written client would (node:http, so that
 * a test can stop reading it): GET with `query` and `variables` in the URL, or POST with them as JSON.
 */
export async function rawStream(
  url: string,
  { method = 'POST', headers = {}, variables = {}, query = LESSON_EVENTS, documentId, agent }: RawStreamOptions = {},
): Promise<RawStream> {
  const target = new URL(url);
  const fields = documentId === undefined ? { query, variables } : { query: '', documentId, variables };
  if (method === 'GET')
    for (const [name, value] of Object.entries(fields))
      target.searchParams.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  const request = httpRequest(target, {
    method,
    ...(agent ? { agent } : {}),
    headers: { accept: 'text/event-stream', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}), ...headers },
  });
  request.on('error', () => {}); // the server cutting the stream, which some tests cause
  const response = await new Promise<IncomingMessage>((resolve) => {
    request.once('response', resolve).end(method === 'POST' ? JSON.stringify(fields) : undefined);
  });
  let text = '';
  response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  response.on('error', () => {}); // likewise
  const ended = new Promise<void>((resolve) => response.once('close', resolve));
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    response,
    text: () => text,
    events: () =>
      text
        .split('\n\n')
        .slice(0, -1) // what follows the last blank line has not fully arrived
        .map((block) => /^event: (\w+)\n(?:id: (.*)\n)?data:(.*)$/s.exec(block))
        .flatMap((match) =>
          match
            ? [{ event: match[1]!, ...(match[2] ? { id: match[2] } : {}), data: match[3]!.trim() === '' ? null : JSON.parse(match[3]!) }]
            : [],
        ),
    ended,
    close: () => request.destroy(),
  };
}
