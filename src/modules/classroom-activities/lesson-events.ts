import type { Tx } from '../../db/transaction.ts';
import type { ClassroomActivity } from '../../generated/prisma/client.ts';
import type { EventHub } from '../../core/event-hub.ts';
import type { LessonEventKind } from '../types.generated.ts';

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

/** Hands each event this instance hears on LESSON_EVENTS_CHANNEL to the subscribers of its classroom activity. */
export function deliverLessonEvents(hub: EventHub): (payload: string) => void {
  return (payload) => {
    let message: LessonEventMessage;
    try {
      message = JSON.parse(payload) as LessonEventMessage;
    } catch {
      return;
    }
    hub.deliver(message.classroomActivityId, message);
  };
}
