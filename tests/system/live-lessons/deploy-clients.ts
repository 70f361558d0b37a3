import { request as httpRequest, type ClientRequest } from 'node:http';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

// The clients of tests/system/live-lessons/deploy.test.ts, as a school's would behave through a deploy: readers
// and a teacher whose every request is tallied (a failure is any answer but a clean 200), and subscribers that
// subscribe again after the last event they got whenever their socket or stream ends, keeping every event, in order.

/** One event as the subscribers ask for it. */
export type LessonEvent = {
  id: string;
  kind: 'LAUNCHED' | 'LOCKED' | 'FINISHED';
  classroomActivityId: string;
  locked: boolean;
  pinned: boolean;
  completed: boolean;
  followUpUrl: string | null;
  at: string;
};

const FOLLOW = `subscription Follow($id: ID!, $after: ID) {
  lessonEvents(classroomActivityId: $id, after: $after) { id kind classroomActivityId locked pinned completed followUpUrl at }
}`;

/** A lesson to follow, as its teacher, from `after`: its cursor read with its state (README, How to never miss an event). */
export type Followed = { id: string; token: string; after: string };

/** The variables of a (re)subscription after `last`, the last event received: where resuming goes (docs/contract.md, Live lessons). */
function resumeAfter({ id, after }: Followed, last: LessonEvent | undefined): Record<string, unknown> {
  return { id, after: last?.id ?? after };
}

/** Each answers with the lesson's cursor as the change left it: the id of the event it committed (docs/contract.md, Live lessons). */
const MUTATIONS = {
  launchLesson: 'mutation Launch($id: ID!) { launchLesson(id: $id) { lessonEventCursor } }',
  unpinAndLock: 'mutation Lock($id: ID!) { unpinAndLock(id: $id) { lessonEventCursor } }',
  finishLesson:
    'mutation Finish($id: ID!) { finishLesson(id: $id, input: { followUp: true }) { classroomActivity { lessonEventCursor } } }',
};
type Changed = { lessonEventCursor?: string; classroomActivity?: { lessonEventCursor: string } };
/** The event each mutation commits (docs/contract.md, Live lessons). */
const KIND_OF: Record<keyof typeof MUTATIONS, LessonEvent['kind']> = {
  launchLesson: 'LAUNCHED',
  unpinAndLock: 'LOCKED',
  finishLesson: 'FINISHED',
};
const READ = 'query Lesson($id: ID!) { classroomActivity(id: $id) { id locked pinned completed assignedStudentIds } }';
const CURSOR = 'query Cursor($id: ID!) { classroomActivity(id: $id) { lessonEventCursor } }';

/** Requests through the balancer, counted; each that did not get a clean 200 is a failure, described. */
export class Tally {
  reads = 0;
  /** The events the successful mutations committed, in order (one writer: commit order). */
  readonly changes: Pick<LessonEvent, 'id' | 'kind'>[] = [];
  readonly failures: string[] = [];
  readonly #origin: string;
  readonly #headers: Record<string, string>;

  constructor(origin: string, token: string) {
    this.#origin = origin;
    this.#headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  }

  /** A read over REST or GraphQL. */
  async read(face: 'rest' | 'graphql', lesson: string): Promise<void> {
    this.reads += 1;
    if (face === 'rest')
      await this.#ask(`GET student_names`, `/api/v1/classroom_activities/${lesson}/student_names`, { headers: this.#headers });
    else await this.#graphql('read', READ, lesson);
  }

  /** The lesson's cursor: where a subscriber that has the lesson's state now starts. */
  async cursor(lesson: string): Promise<string> {
    const data = (await this.#graphql('cursor', CURSOR, lesson)) as { classroomActivity: { lessonEventCursor: string } } | undefined;
    if (!data) throw new Error(`no cursor: ${this.failures.join('; ')}`);
    return data.classroomActivity.lessonEventCursor;
  }

  async change(mutation: keyof typeof MUTATIONS, lesson: string): Promise<void> {
    const data = (await this.#graphql(mutation, MUTATIONS[mutation], lesson)) as Record<string, Changed> | undefined;
    const changed = data?.[mutation];
    const id = changed?.lessonEventCursor ?? changed?.classroomActivity?.lessonEventCursor;
    if (id !== undefined) this.changes.push({ id, kind: KIND_OF[mutation] });
  }

  /** The answer's data, or undefined when it failed (tallied). */
  async #graphql(label: string, query: string, id: string): Promise<unknown> {
    const body = JSON.stringify({ query, variables: { id } });
    const answer = await this.#ask(label, '/graphql', { method: 'POST', headers: this.#headers, body });
    if (answer === undefined) return undefined;
    const { data, errors } = JSON.parse(answer) as { data?: unknown; errors?: unknown[] };
    if (errors) this.failures.push(`${label}: ${JSON.stringify(errors).slice(0, 300)}`);
    return errors ? undefined : data;
  }

  async #ask(label: string, path: string, init: RequestInit): Promise<string | undefined> {
    try {
      const response = await fetch(`${this.#origin}${path}`, init);
      const text = await response.text();
      if (response.status === 200) return text;
      this.failures.push(`${label}: HTTP ${response.status} ${text.slice(0, 300)}`);
    } catch (error) {
      const cause = (error as Error).cause as Error | undefined;
      this.failures.push(`${label}: ${(error as Error).message}${cause ? ` (${cause.message})` : ''}`);
    }
    return undefined;
  }
}

/** A client following one lesson through restarts: what it got, what went wrong, how often it (re)connected. */
export type Subscriber = {
  events(): LessonEvent[];
  /** Anything but an event or a clean end (1001, `complete`) of its socket or stream. */
  readonly failures: string[];
  connections(): number;
  stop(): Promise<void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A pause before subscribing again, as clients' backoff has (short: the deploy is quick). */
const pause = () => sleep(20 + Math.random() * 80);

/** Subscribes again, after a pause, whenever `once` (one socket or stream) ends; until stopped. */
function resubscribing(once: (state: SubscriberState) => Promise<void>, cancel: () => void): Subscriber {
  const state: SubscriberState = { events: [], failures: [], connections: 0, stopped: false };
  const loop = (async () => {
    while (!state.stopped) {
      await once(state);
      if (!state.stopped) await pause();
    }
  })();
  return {
    events: () => state.events,
    failures: state.failures,
    connections: () => state.connections,
    async stop() {
      state.stopped = true;
      cancel();
      await loop;
    },
  };
}

type SubscriberState = { events: LessonEvent[]; failures: string[]; connections: number; stopped: boolean };

/** Follows the lesson over graphql-ws, one socket at a time (its library's retry off: this loop subscribes again). */
export function followLessonOverSocket(wsUrl: string, followed: Followed): Subscriber {
  let client: Client | undefined;
  return resubscribing(
    async (state) => {
      client = createClient({
        url: wsUrl,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        connectionParams: { authorization: `Bearer ${followed.token}` },
        on: { connected: () => void (state.connections += 1) },
      });
      const ended = await new Promise<unknown>((resolve) => {
        client!.subscribe<{ lessonEvents: LessonEvent }>(
          { query: FOLLOW, variables: resumeAfter(followed, state.events.at(-1)) },
          {
            next: (result) => {
              if (result.errors) state.failures.push(`socket: ${JSON.stringify(result.errors).slice(0, 300)}`);
              else if (result.data) state.events.push(result.data.lessonEvents);
            },
            error: resolve,
            complete: () => resolve(undefined),
          },
        );
      });
      await client.dispose();
      const code = (ended as { code?: number } | undefined)?.code;
      if (ended !== undefined && code !== 1001 && !state.stopped)
        state.failures.push(`socket: ended with ${code ?? JSON.stringify(ended)}`);
    },
    () => void client?.dispose(),
  );
}

/**
 * Follows the lesson over event streams as a browser's EventSource does (GET, the document in the URL, the
 * same each time), subscribing again when a stream ends with the last `id:` it got as `Last-Event-ID`.
 */
export function followLessonOverStream(streamUrl: string, { id, token, after }: Followed): Subscriber {
  let current: ClientRequest | undefined;
  let lastEventId: string | undefined;
  return resubscribing(
    (state) =>
      new Promise<void>((resolve) => {
        const target = new URL(streamUrl);
        target.searchParams.set('query', FOLLOW);
        // As an EventSource's URL, the same every time: once there is one, the header says where to resume.
        target.searchParams.set('variables', JSON.stringify({ id, after }));
        const headers = {
          accept: 'text/event-stream',
          authorization: `Bearer ${token}`,
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        };
        const asked = httpRequest(target, { headers });
        current = asked;
        asked.once('error', (error) => {
          if (!state.stopped) state.failures.push(`stream: ${error.message}`);
          resolve();
        });
        asked.once('response', (response) => {
          response.once('close', resolve).on('error', () => {});
          if (response.statusCode !== 200) {
            state.failures.push(`stream: HTTP ${response.statusCode}`);
            return void response.resume();
          }
          state.connections += 1;
          let buffer = '';
          response.setEncoding('utf8').on('data', (chunk: string) => {
            buffer += chunk;
            for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
              const message = parseMessage(buffer.slice(0, cut));
              buffer = buffer.slice(cut + 2);
              if (message.id !== undefined) lastEventId = message.id;
              if (message.event !== 'next') continue;
              const result = JSON.parse(message.data) as { data?: { lessonEvents: LessonEvent }; errors?: unknown };
              if (result.errors) state.failures.push(`stream: ${JSON.stringify(result.errors).slice(0, 300)}`);
              else if (result.data) state.events.push(result.data.lessonEvents);
            }
          });
        });
        asked.end();
      }),
    () => current?.destroy(),
  );
}

/** One Server-Sent Events message's fields (comments left out). */
function parseMessage(block: string): { event?: string; data: string; id?: string } {
  const message: { event?: string; data: string; id?: string } = { data: '' };
  for (const line of block.split('\n')) {
    const [, field, value = ''] = /^([^:]+):? ?(.*)$/.exec(line) ?? [];
    if (field === 'event') message.event = value;
    else if (field === 'data') message.data += value;
    else if (field === 'id') message.id = value;
  }
  return message;
}
