import type { Tx } from '../../db/transaction.ts';
import type { ClassroomActivity } from '../../generated/prisma/client.ts';
import type { EventHub } from '../../core/event-hub.ts';
import { ListenerDeafError, type Database } from '../../db/client.ts';
import type { LessonEventKind } from '../types.generated.ts';

// Live lessons' events (docs/contract.md, Live lessons), sent with pg_notify inside the writing transaction:
// PostgreSQL and PGlite deliver a notification at commit, in commit order, to every listening connection,
// and never for one rolled back. So every instance hears every committed change, and a refused one is silent.

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

/**
 * Hands each lesson event this instance hears to the subscribers of its classroom activity (`hub`), until
 * the returned function is called; `log` is told when the listening connection drops and comes back.
 */
export function listenForLessonEvents(
  database: Pick<Database, 'listen'>,
  hub: EventHub,
  log: { error(details: object, message: string): void; warn(details: object, message: string): void; info(message: string): void },
): Promise<() => Promise<void>> {
  return database.listen(
    LESSON_EVENTS_CHANNEL,
    (payload) => {
      let message: LessonEventMessage;
      try {
        message = JSON.parse(payload) as LessonEventMessage;
      } catch {
        return;
      }
      hub.deliver(message.classroomActivityId, message);
    },
    (state, { error, retryInMs }) => {
      if (state === 'listening') log.info('lesson events: listening');
      // A new connection that hears nothing the app sends: a misconfiguration (docs/operations.md, Behind a connection pooler).
      else if (error instanceof ListenerDeafError)
        log.error({ err: error, retryInMs }, 'lesson events: the new listening connection is deaf to DATABASE_URL, reconnecting');
      else log.warn({ err: error, retryInMs }, 'lesson events: lost the listening connection, reconnecting');
    },
  );
}
