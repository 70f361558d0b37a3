import { createClient as createStreamClient } from 'graphql-sse';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

// A child of bench/subscriptions.ts holding a share of the subscribers: one graphql-ws client per student
// (or, given an http: URL, one graphql-sse event stream), stamping each event with Date.now() on arrival
// and handing all back over IPC. Children, so that the parent, which paces the finishes, does not share
// their event loop.

/** `after`: resume after this event id or cursor (bench/reconnect-storm.ts); absent, live events only. */
export type SubscriberSpec = { token: string; lessonId: number; after?: string };

export type ParentMessage =
  | { type: 'open'; url: string; subscribers: SubscriberSpec[]; concurrency: number }
  | { type: 'count'; kind: string }
  | { type: 'report' }
  | { type: 'close' };

/** Per subscriber: its lesson, whether it ended early, and its events as [kind, at (ms), received (ms), classroomActivityId]. */
export type SubscriberReport = { lessonId: number; ended: string | null; events: [string, number, number, number][] };

export type ChildMessage =
  | { type: 'opened'; connected: number; failed: number; problems: string[]; ms: number }
  | { type: 'count'; received: number }
  | { type: 'report'; subscribers: SubscriberReport[] };

const LESSON_EVENTS = `subscription Follow($id: ID!, $after: ID) {
  lessonEvents(classroomActivityId: $id, after: $after) { kind classroomActivityId locked pinned completed followUpUrl at }
}`;

const clients: { dispose(): unknown }[] = [];
const reports: SubscriberReport[] = [];
const send = (message: ChildMessage) => process.send!(message);

/** Connects one subscriber; resolves true once its connection is acknowledged (the token accepted), false if it closed first. */
function open(url: string, { token, lessonId, after }: SubscriberSpec, problems: string[]): Promise<boolean> {
  const report: SubscriberReport = { lessonId, ended: null, events: [] };
  reports.push(report);
  const sink = {
    next: ({
      data,
      errors,
    }: {
      data?: { lessonEvents: { kind: string; at: string; classroomActivityId: string } } | null;
      errors?: unknown;
    }) => {
      const received = Date.now();
      if (errors || !data) {
        if (problems.length < 5) problems.push(JSON.stringify(errors));
        return;
      }
      const event = data.lessonEvents;
      report.events.push([event.kind, Date.parse(event.at), received, Number(event.classroomActivityId)]);
    },
    error: (error: unknown) => {
      report.ended ??= `error ${JSON.stringify(error instanceof Error ? error.message : error).slice(0, 200)}`;
      if (problems.length < 5) problems.push(report.ended);
    },
    complete: () => void (report.ended ??= 'complete'),
  };
  const request = { query: LESSON_EVENTS, variables: { id: String(lessonId), after: after ?? null } };
  return new Promise((resolve) => {
    if (url.startsWith('http')) {
      // An event stream of its own: connected once the server answered 200; a refusal ends it with an error.
      const client = createStreamClient({ url, retryAttempts: 0, headers: { authorization: `Bearer ${token}` } });
      clients.push(client);
      client.subscribe(
        request,
        { ...sink, error: (error) => (sink.error(error), resolve(false)), complete: () => (sink.complete(), resolve(false)) },
        { connected: () => resolve(true) },
      );
      return;
    }
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${token}` },
      on: {
        connected: () => resolve(true),
        closed: (event) => {
          const { code, reason } = event as { code?: number; reason?: string };
          report.ended ??= `closed ${code ?? '?'} ${reason ?? ''}`.trim();
          resolve(false);
        },
      },
    });
    clients.push(client);
    client.subscribe(request, sink);
  });
}

async function openAll(url: string, subscribers: SubscriberSpec[], concurrency: number): Promise<void> {
  const started = Date.now();
  const problems: string[] = [];
  let next = 0;
  let connected = 0;
  let failed = 0;
  const worker = async () => {
    while (next < subscribers.length) {
      if (await open(url, subscribers[next++]!, problems)) connected += 1;
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, subscribers.length) }, worker));
  send({ type: 'opened', connected, failed, problems, ms: Date.now() - started });
}

process.on('message', (message: ParentMessage) => {
  switch (message.type) {
    case 'open':
      void openAll(message.url, message.subscribers, message.concurrency);
      break;
    case 'count':
      send({ type: 'count', received: reports.reduce((n, r) => n + r.events.filter(([kind]) => kind === message.kind).length, 0) });
      break;
    case 'report':
      send({ type: 'report', subscribers: reports });
      break;
    case 'close':
      void Promise.all(clients.map(async (client) => client.dispose())).finally(() => process.exit(0));
      break;
  }
});
