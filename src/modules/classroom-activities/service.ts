import { randomBytes } from 'node:crypto';
import { requireUser } from '../../auth/guards.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/transaction.ts';
import type { Classroom, ClassroomActivity, ClassroomTeacher, Unit, User } from '../../generated/prisma/client.ts';
import { forbidden } from '../../core/errors.ts';
import { parseNumericId } from '../../core/validation.ts';
import { notifyLessonEvent } from './lesson-events.ts';

/** A classroom activity as read for a viewer: its classroom with the owner and the viewer's membership, and its unit. */
export type ClassroomActivityForViewer = ClassroomActivity & {
  unit: Unit | null;
  classroom: Classroom & { teachers: (ClassroomTeacher & { user: User })[] };
};

/**
 * A visible classroom activity, or null: hidden ones behave as if they did not exist. One statement
 * brings what every caller checks or reads next: the classroom's owner (its `teacher`), the viewer's own
 * membership when `viewerId` is given, and the unit.
 */
export function findClassroomActivity(db: Db | Tx, id: string, viewerId: number | null): Promise<ClassroomActivityForViewer | null> {
  const numericId = parseNumericId(id);
  if (numericId === null) return Promise.resolve(null);
  const teachers = viewerId === null ? { role: 'owner' as const } : { OR: [{ role: 'owner' as const }, { userId: viewerId }] };
  return db.classroomActivity.findFirst({
    where: { id: numericId, visible: true },
    include: { unit: true, classroom: { include: { teachers: { where: teachers, include: { user: true } } } } },
  });
}

/** The classroom's owner, from a classroom activity read by findClassroomActivity. */
export const ownerOf = (classroomActivity: ClassroomActivityForViewer): User | null =>
  classroomActivity.classroom.teachers.find((teacher) => teacher.role === 'owner')?.user ?? null;

/** Only a teacher of the classroom (owner or co-teacher) may see or change its classroom activities. */
export function requireTeacherOf(viewer: Viewer, classroomActivity: ClassroomActivityForViewer): User {
  const user = requireUser(viewer);
  if (!classroomActivity.classroom.teachers.some((teacher) => teacher.userId === user.id))
    throw forbidden('Only a teacher of this classroom may do this');
  return user;
}

export async function unpinAndLock(tx: Tx, classroomActivity: ClassroomActivity): Promise<ClassroomActivity> {
  const locked = await tx.classroomActivity.update({ where: { id: classroomActivity.id }, data: { pinned: false, locked: true } });
  await notifyLessonEvent(tx, 'LOCKED', locked);
  return locked;
}

/** Session uids are 16 random bytes in base64url, as activity uids are (src/modules/activities/service.ts). */
const newSessionUid = () => randomBytes(16).toString('base64url');

/**
 * Starts a live lesson: it is unlocked and pinned, and becomes the only pinned one of its classroom; each
 * assigned student with no session in it (hidden ones count) gets an unstarted one. The classroom's row is
 * locked first, so concurrent launches in one classroom run one after the other and leave one pinned.
 */
export async function launchLesson(tx: Tx, classroomActivity: ClassroomActivity): Promise<ClassroomActivity> {
  const { id, classroomId, activityId } = classroomActivity;
  await tx.$queryRaw`SELECT id FROM classrooms WHERE id = ${classroomId} FOR UPDATE`;
  await tx.$executeRaw`
    UPDATE classroom_activities SET pinned = false, updated_at = now() WHERE classroom_id = ${classroomId} AND id <> ${id} AND pinned`;
  const launched = await tx.classroomActivity.update({ where: { id }, data: { locked: false, pinned: true } });
  const studentIds = [...new Set(launched.assignedStudentIds)];
  if (studentIds.length > 0) {
    // Students that are not users (imported data may name them) get nothing; state defaults to unstarted.
    await tx.$executeRaw`
      INSERT INTO activity_sessions (uid, classroom_activity_id, activity_id, user_id, updated_at)
      SELECT given.uid, ${id}, ${activityId}, given.user_id, now()
      FROM unnest(${studentIds}::int[], ${studentIds.map(newSessionUid)}::text[]) AS given(user_id, uid)
      WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = given.user_id)
        AND NOT EXISTS (SELECT 1 FROM activity_sessions s WHERE s.classroom_activity_id = ${id} AND s.user_id = given.user_id)`;
  }
  await notifyLessonEvent(tx, 'LAUNCHED', launched);
  return launched;
}
