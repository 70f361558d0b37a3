import type { Tx } from '../../db/transaction.ts';
import type { ClassroomActivity } from '../../generated/prisma/client.ts';
import type { LessonEventKind } from '../../graphql/types.generated.ts';

// Live lessons' events (docs/contract.md, Live lessons). They are sent with pg_notify inside the writing
// transaction: PostgreSQL (and PGlite) deliver a notification only when that transaction commits, in
// commit order, to every listening connection of the database, and never for one rolled back. So every
// instance on the database hears every committed change, and a refused change sends nothing.

/** The one channel every instance listens on. */
export const LESSON_EVENTS_CHANNEL = 'lesson_events';

export type LessonEventMessage = {
  kind: LessonEventKind;
  classroomActivityId: number;
  locked: boolean;
  pinned: boolean;
  completed: boolean;
  followUpUrl: string | null;
  /** ISO 8601: taken just before the commit (the transaction's last statement). */
  at: string;
};

/** Queues the event on the transaction: delivered at its commit, dropped with its rollback. */
export async function notifyLessonEvent(
  tx: Tx,
  kind: LessonEventKind,
  classroomActivity: Pick<ClassroomActivity, 'id' | 'locked' | 'pinned' | 'completed'>,
  followUpUrl: string | null = null,
): Promise<void> {
  const message: LessonEventMessage = {
    kind,
    classroomActivityId: classroomActivity.id,
    locked: classroomActivity.locked,
    pinned: classroomActivity.pinned,
    completed: classroomActivity.completed,
    followUpUrl,
    at: new Date().toISOString(),
  };
  // $executeRaw: pg_notify returns void, which Prisma's raw query reader cannot read.
  await tx.$executeRaw`SELECT pg_notify(${LESSON_EVENTS_CHANNEL}, ${JSON.stringify(message)})`;
}

/** A subscriber's queue holds at most this many undelivered events; one that falls further behind is dropped. */
export const SUBSCRIBER_BUFFER = 256;

type Subscriber = { push(event: LessonEventMessage): void };

/**
 * One instance's fan-out: its database listener hands every notification to `deliver`, which queues it
 * for the subscribers of that classroom activity. Order per classroom activity is the commit order, since
 * notifications arrive in that order on the one listening connection.
 */
export class LessonEventHub {
  private readonly subscribers = new Map<number, Set<Subscriber>>();

  constructor(private readonly bufferSize = SUBSCRIBER_BUFFER) {}

  /** Subscribers across all classroom activities (tests and logs). */
  get size(): number {
    let count = 0;
    for (const set of this.subscribers.values()) count += set.size;
    return count;
  }

  deliver(payload: string): void {
    let message: LessonEventMessage;
    try {
      message = JSON.parse(payload) as LessonEventMessage;
    } catch {
      return;
    }
    const set = this.subscribers.get(message.classroomActivityId);
    if (set) for (const subscriber of [...set]) subscriber.push(message);
  }

  /**
   * The events of one classroom activity from now on. The iterator ends when its consumer returns, or
   * when it falls `bufferSize` events behind (it is dropped rather than let memory grow; the client reads
   * the classroom activity and subscribes again).
   */
  subscribe(classroomActivityId: number): AsyncIterableIterator<LessonEventMessage> {
    const queue: LessonEventMessage[] = [];
    let waiting: ((result: IteratorResult<LessonEventMessage>) => void) | null = null;
    let ended = false;
    const set = this.subscribers.get(classroomActivityId) ?? new Set<Subscriber>();
    this.subscribers.set(classroomActivityId, set);

    const end = () => {
      if (ended) return;
      ended = true;
      queue.length = 0;
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(classroomActivityId) === set) this.subscribers.delete(classroomActivityId);
      waiting?.({ value: undefined, done: true });
      waiting = null;
    };
    const subscriber: Subscriber = {
      push: (event) => {
        if (ended) return;
        if (waiting) {
          const resolve = waiting;
          waiting = null;
          resolve({ value: event, done: false });
        } else if (queue.length >= this.bufferSize) end();
        else queue.push(event);
      },
    };
    set.add(subscriber);

    const iterator: AsyncIterableIterator<LessonEventMessage> = {
      next: () => {
        if (queue.length > 0) return Promise.resolve({ value: queue.shift()!, done: false });
        if (ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (waiting = resolve));
      },
      return: () => {
        end();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }
}
