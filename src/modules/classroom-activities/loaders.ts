import DataLoader from 'dataloader';
import { byKey, loaderById, loaderOfGroups, perRequest } from '../../core/load.ts';
import type { Statement } from '../../db/client.ts';
import type { ClassroomActivity, User } from '../../generated/prisma/client.ts';
import type { GraphQLContext } from '../context.ts';
import type { ActivitySessionMapper, ConceptResultMapper } from './mappers.ts';
import { CLASSROOM_ACTIVITY_COLUMNS } from './read-plan.ts';

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

/** Visible classroom activities by id, each with whether the viewer teaches its classroom: one statement a batch. */
const FOR_VIEWER_BY_IDS: Statement = {
  name: 'classroom_activities_for_viewer',
  text: `SELECT ca.id, ca.classroom_id AS "classroomId", ${Object.values(CLASSROOM_ACTIVITY_COLUMNS).join(', ')},
           ca.visible, ca.created_at AS "createdAt", ca.updated_at AS "updatedAt", vt.id IS NOT NULL AS "viewerTeaches"
         FROM classroom_activities ca
         LEFT JOIN classrooms_teachers vt ON vt.classroom_id = ca.classroom_id AND vt.user_id = $2
         WHERE ca.id = ANY($1::int[]) AND ca.visible`,
};

export type ForViewer = ClassroomActivity & { viewerTeaches: boolean };

export const classroomActivityForViewer = perRequest(
  ({ read, viewer }: GraphQLContext) =>
    new DataLoader<number, ForViewer | null>(async (ids) =>
      byKey(ids, await read<ForViewer>(FOR_VIEWER_BY_IDS, [[...ids], viewer.kind === 'user' ? viewer.user.id : null]), (row) => row.id),
    ),
);
