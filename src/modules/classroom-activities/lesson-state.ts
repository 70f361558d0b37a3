import { newUid } from '../../core/uids.ts';
import type { Tx } from '../../db/transaction.ts';
import type { ClassroomActivity } from '../../generated/prisma/client.ts';
import { notifyLessonEvent } from './lesson-events.ts';

// A live lesson's state changes (docs/contract.md, Live lessons) once operations.ts has checked access:
// launching and locking it, each in the caller's transaction, storing its event (at the position its update
// moved to) and sending it at commit. The third, finishing it, has its own rules in finish-lesson.ts.

export async function unpinAndLockInTransaction(tx: Tx, classroomActivityId: number): Promise<ClassroomActivity> {
  const locked = await tx.classroomActivity.update({
    where: { id: classroomActivityId },
    data: { pinned: false, locked: true, lessonEventPosition: { increment: 1 } },
  });
  await notifyLessonEvent(tx, 'LOCKED', locked);
  return locked;
}

/**
 * Starts a live lesson: it is unlocked and pinned, and becomes the only pinned one of its classroom; each
 * assigned student with no session in it (hidden ones count) gets an unstarted one. The classroom's row is
 * locked first, so concurrent launches in one classroom run one after the other and leave one pinned.
 */
export async function launchInTransaction(
  tx: Tx,
  { id, classroomId }: Pick<ClassroomActivity, 'id' | 'classroomId'>,
): Promise<ClassroomActivity> {
  await tx.$queryRaw`SELECT id FROM classrooms WHERE id = ${classroomId} FOR UPDATE`;
  await tx.$executeRaw`
    UPDATE classroom_activities SET pinned = false, updated_at = now() WHERE classroom_id = ${classroomId} AND id <> ${id} AND pinned`;
  const launched = await tx.classroomActivity.update({
    where: { id },
    data: { locked: false, pinned: true, lessonEventPosition: { increment: 1 } },
  });
  const studentIds = [...new Set(launched.assignedStudentIds)];
  if (studentIds.length > 0) {
    // Students that are not users (imported data may name them) get nothing; state defaults to unstarted.
    await tx.$executeRaw`
      INSERT INTO activity_sessions (uid, classroom_activity_id, activity_id, user_id, updated_at)
      SELECT given.uid, ${id}, ${launched.activityId}, given.user_id, now()
      FROM unnest(${studentIds}::int[], ${studentIds.map(newUid)}::text[]) AS given(user_id, uid)
      WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = given.user_id)
        AND NOT EXISTS (SELECT 1 FROM activity_sessions s WHERE s.classroom_activity_id = ${id} AND s.user_id = given.user_id)`;
  }
  await notifyLessonEvent(tx, 'LAUNCHED', launched);
  return launched;
}
