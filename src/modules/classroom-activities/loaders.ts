import DataLoader from 'dataloader';
import type { Db } from '../../db/client.ts';
import type { Classroom, Unit, User } from '../../generated/prisma/client.ts';
import type { ConceptResultWithConcept, SessionWithStudent } from '../../graphql/mappers.ts';
import { byKey, groupByKey } from '../../core/load.ts';

/** Made on first use, per request (see loadersOnFirstUse). */
export const classroomActivityLoaders = {
  classroomById: (db: Db) =>
    new DataLoader<number, Classroom | null>(async (ids) =>
      byKey(ids, await db.classroom.findMany({ where: { id: { in: [...ids] } } }), (row) => row.id),
    ),
  ownerByClassroomId: (db: Db) =>
    new DataLoader<number, User | null>(async (classroomIds) => {
      const owners = await db.classroomTeacher.findMany({
        where: { classroomId: { in: [...classroomIds] }, role: 'owner' },
        include: { user: true },
      });
      return byKey(classroomIds, owners, (row) => row.classroomId).map((owner) => owner?.user ?? null);
    }),
  unitById: (db: Db) =>
    new DataLoader<number, Unit | null>(async (ids) =>
      byKey(ids, await db.unit.findMany({ where: { id: { in: [...ids] } } }), (row) => row.id),
    ),
  /** Visible sessions with their students, in id order. */
  sessionsByClassroomActivityId: (db: Db) =>
    new DataLoader<number, SessionWithStudent[]>(async (ids) => {
      const sessions = await db.activitySession.findMany({
        where: { classroomActivityId: { in: [...ids] }, visible: true },
        include: { student: true },
        orderBy: { id: 'asc' },
      });
      return groupByKey(ids, sessions, (row) => row.classroomActivityId);
    }),
  conceptResultsBySessionId: (db: Db) =>
    new DataLoader<number, ConceptResultWithConcept[]>(async (ids) => {
      const results = await db.conceptResult.findMany({
        where: { activitySessionId: { in: [...ids] } },
        include: { concept: true },
        orderBy: { id: 'asc' },
      });
      return groupByKey(ids, results, (row) => row.activitySessionId);
    }),
};
