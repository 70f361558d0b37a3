import DataLoader from 'dataloader';
import { byKey, groupByKey, perRequest } from '../../core/load.ts';
import type { Classroom, Unit, User } from '../../generated/prisma/client.ts';
import type { GraphQLContext } from '../context.ts';
import type { ActivitySessionMapper, ConceptResultMapper } from './mappers.ts';

export const classroomById = perRequest(
  ({ db }: GraphQLContext) =>
    new DataLoader<number, Classroom | null>(async (ids) =>
      byKey(ids, await db.classroom.findMany({ where: { id: { in: [...ids] } } }), (row) => row.id),
    ),
);

export const ownerByClassroomId = perRequest(
  ({ db }: GraphQLContext) =>
    new DataLoader<number, User | null>(async (classroomIds) => {
      const owners = await db.classroomTeacher.findMany({
        where: { classroomId: { in: [...classroomIds] }, role: 'owner' },
        include: { user: true },
      });
      return byKey(classroomIds, owners, (row) => row.classroomId).map((owner) => owner?.user ?? null);
    }),
);

export const unitById = perRequest(
  ({ db }: GraphQLContext) =>
    new DataLoader<number, Unit | null>(async (ids) =>
      byKey(ids, await db.unit.findMany({ where: { id: { in: [...ids] } } }), (row) => row.id),
    ),
);

/** Visible sessions with their students, in id order. */
export const sessionsByClassroomActivityId = perRequest(
  ({ db }: GraphQLContext) =>
    new DataLoader<number, ActivitySessionMapper[]>(async (ids) => {
      const sessions = await db.activitySession.findMany({
        where: { classroomActivityId: { in: [...ids] }, visible: true },
        include: { student: true },
        orderBy: { id: 'asc' },
      });
      return groupByKey(ids, sessions, (row) => row.classroomActivityId);
    }),
);

export const conceptResultsBySessionId = perRequest(
  ({ db }: GraphQLContext) =>
    new DataLoader<number, ConceptResultMapper[]>(async (ids) => {
      const results = await db.conceptResult.findMany({
        where: { activitySessionId: { in: [...ids] } },
        include: { concept: true },
        orderBy: { id: 'asc' },
      });
      return groupByKey(ids, results, (row) => row.activitySessionId);
    }),
);
