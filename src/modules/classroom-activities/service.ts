import { requireUser } from '../../auth/guards.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/transaction.ts';
import type { Classroom, ClassroomActivity, ClassroomTeacher, Unit, User } from '../../generated/prisma/client.ts';
import { forbidden } from '../../graphql/errors.ts';
import { parseNumericId } from '../../graphql/validation.ts';

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

export function unpinAndLock(tx: Tx, classroomActivity: ClassroomActivity): Promise<ClassroomActivity> {
  return tx.classroomActivity.update({ where: { id: classroomActivity.id }, data: { pinned: false, locked: true } });
}
