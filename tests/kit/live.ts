import { Writable } from 'node:stream';
import type { FormattedExecutionResult } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import type pg from 'pg';
import WebSocket from 'ws';
import { LISTENER_APPLICATION_NAME } from '../../src/db/listener.ts';
import { documentText, startGateway, type Gateway, type GatewayOptions } from './gateway.ts';
import { graphql } from './gql/index.ts';
import type { FollowSubscription } from './gql/graphql.ts';

// Live lessons as a client sees them: a gateway listening on a real port, and graphql-ws clients on it.

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
export async function startListeningGateway(env: Record<string, string> = {}, options: GatewayOptions = {}): Promise<ListeningGateway> {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const gateway = await startGateway({ LOG_LEVEL: 'info', ...env }, { logStream }, options);
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gateway.app.server.address() as { port: number };
  const logs = () => lines.map((line) => JSON.parse(line) as Record<string, any>);
  return Object.assign(gateway, {
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
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

export type Follower = {
  client: Client;
  /** Every `next` payload received, in order. */
  results: FormattedExecutionResult<FollowSubscription, unknown>[];
  /** The events (data.lessonEvents) received, in order. */
  events(): LessonEvent[];
  /** Settles when the subscription ends: 'complete', or the error it ended with. */
  ended: Promise<{ complete: true } | { error: any }>;
  /** Resolves once `count` events arrived. */
  waitForEvents(count: number): Promise<LessonEvent[]>;
};

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
  const results: FormattedExecutionResult<FollowSubscription, unknown>[] = [];
  const ended = new Promise<{ complete: true } | { error: any }>((resolve) => {
    client.subscribe<FollowSubscription>(
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
