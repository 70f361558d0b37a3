import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

// A child of bench/subscriptions.ts holding a share of the subscribers: one graphql-ws client per student,
// stamping each event with Date.now() on arrival and handing all back over IPC. Children, so that the
// parent, which paces the finishes, does not share their event loop.

export type SubscriberSpec = { token: string; lessonId: number };

export type ParentMessage =
  | { type: 'open'; wsUrl: string; subscribers: SubscriberSpec[]; concurrency: number }
  | { type: 'count'; kind: string }
  | { type: 'report' }
  | { type: 'close' };

/** Per subscriber: its lesson, whether it ended early, and its events as [kind, at (ms), received (ms), classroomActivityId]. */
export type SubscriberReport = { lessonId: number; ended: string | null; events: [string, number, number, number][] };

export type ChildMessage =
  | { type: 'opened'; connected: number; failed: number; problems: string[]; ms: number }
  | { type: 'count'; received: number }
  | { type: 'report'; subscribers: SubscriberReport[] };

const LESSON_EVENTS = `subscription Follow($id: ID!) {
  lessonEvents(classroomActivityId: $id) { kind classroomActivityId locked pinned completed followUpUrl at }
}`;

const clients: Client[] = [];
const reports: SubscriberReport[] = [];
const send = (message: ChildMessage) => process.send!(message);

/** Connects one subscriber; resolves true once its connection is acknowledged (the token accepted), false if it closed first. */
function open(wsUrl: string, { token, lessonId }: SubscriberSpec, problems: string[]): Promise<boolean> {
  const report: SubscriberReport = { lessonId, ended: null, events: [] };
  reports.push(report);
  return new Promise((resolve) => {
    const client = createClient({
      url: wsUrl,
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
    client.subscribe<{ lessonEvents: { kind: string; at: string; classroomActivityId: string } }>(
      { query: LESSON_EVENTS, variables: { id: String(lessonId) } },
      {
        next: ({ data, errors }) => {
          const received = Date.now();
          if (errors || !data) {
            if (problems.length < 5) problems.push(JSON.stringify(errors));
            return;
          }
          const event = data.lessonEvents;
          report.events.push([event.kind, Date.parse(event.at), received, Number(event.classroomActivityId)]);
        },
        error: (error) => {
          report.ended ??= `error ${JSON.stringify(error).slice(0, 200)}`;
          if (problems.length < 5) problems.push(report.ended);
        },
        complete: () => void (report.ended ??= 'complete'),
      },
    );
  });
}

async function openAll(wsUrl: string, subscribers: SubscriberSpec[], concurrency: number): Promise<void> {
  const started = Date.now();
  const problems: string[] = [];
  let next = 0;
  let connected = 0;
  let failed = 0;
  const worker = async () => {
    while (next < subscribers.length) {
      if (await open(wsUrl, subscribers[next++]!, problems)) connected += 1;
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, subscribers.length) }, worker));
  send({ type: 'opened', connected, failed, problems, ms: Date.now() - started });
}

process.on('message', (message: ParentMessage) => {
  switch (message.type) {
    case 'open':
      void openAll(message.wsUrl, message.subscribers, message.concurrency);
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
