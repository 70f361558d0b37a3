import DataLoader from 'dataloader';
import { byKey, loaderById, loaderOfGroups, perRequest } from '../../core/load.ts';
import type { User } from '../../generated/prisma/client.ts';
import type { GraphQLContext } from '../context.ts';
import type { ActivitySessionMapper, ConceptResultMapper } from './mappers.ts';

export const classroomById = loaderById(({ db }: GraphQLContext, ids) => db.classroom.findMany({ where: { id: { in: ids } } }));

export const unitById = loaderById(({ db }: GraphQLContext, ids) => db.unit.findMany({ where: { id: { in: ids } } }));

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

/** Visible sessions with their students, in id order. */
export const sessionsByClassroomActivityId = loaderOfGroups<GraphQLContext, ActivitySessionMapper & { classroomActivityId: number }>(
  ({ db }, ids) =>
    db.activitySession.findMany({
      where: { classroomActivityId: { in: ids }, visible: true },
      include: { student: true },
      orderBy: { id: 'asc' },
    }),
  (row) => row.classroomActivityId,
);

export const conceptResultsBySessionId = loaderOfGroups<GraphQLContext, ConceptResultMapper & { activitySessionId: number }>(
  ({ db }, ids) =>
    db.conceptResult.findMany({ where: { activitySessionId: { in: ids } }, include: { concept: true }, orderBy: { id: 'asc' } }),
  (row) => row.activitySessionId,
);
