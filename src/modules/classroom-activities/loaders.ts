import DataLoader from 'dataloader';
import { byKey, loaderById, loaderOfGroups, perRequest } from '../../core/load.ts';
import type { User } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../context.ts';
import type { ActivitySessionMapper, ConceptResultMapper } from './mappers.ts';
import { fetchViews, prepareView, type ClassroomActivityView } from './view-statement.ts';
import { CLASSROOM_ACTIVITY_FIELDS } from './view-plan.ts';

export const classroomById = loaderById(({ db }: RequestContext, ids) => db.classroom.findMany({ where: { id: { in: ids } } }));

export const unitById = loaderById(({ db }: RequestContext, ids) => db.unit.findMany({ where: { id: { in: ids } } }));

export const ownerByClassroomId = perRequest(
  ({ db }: RequestContext) =>
    new DataLoader<number, User | null>(async (classroomIds) => {
      const owners = await db.classroomTeacher.findMany({
        where: { classroomId: { in: [...classroomIds] }, role: 'owner' },
        include: { user: true },
      });
      return byKey(classroomIds, owners, (row) => row.classroomId).map((owner) => owner?.user ?? null);
    }),
);

/** Visible sessions with their students, in id order. */
export const sessionsByClassroomActivityId = loaderOfGroups<RequestContext, ActivitySessionMapper & { classroomActivityId: number }>(
  ({ db }, ids) =>
    db.activitySession.findMany({
      where: { classroomActivityId: { in: ids }, visible: true },
      include: { student: true },
      orderBy: { id: 'asc' },
    }),
  (row) => row.classroomActivityId,
);

export const conceptResultsBySessionId = loaderOfGroups<RequestContext, ConceptResultMapper & { activitySessionId: number }>(
  ({ db }, ids) =>
    db.conceptResult.findMany({ where: { activitySessionId: { in: ids } }, include: { concept: true }, orderBy: { id: 'asc' } }),
  (row) => row.activitySessionId,
);

/** A supergraph's classroom activities (src/modules/classroom-activities/entities.ts): every column, one statement a batch. */
const ENTITY_VIEW = prepareView(
  { fields: CLASSROOM_ACTIVITY_FIELDS, classroom: false, owner: false, unit: false, follower: false, sessions: null },
  { many: true },
);

export const classroomActivityViewById = perRequest(
  ({ read, viewer }: RequestContext) =>
    new DataLoader<number, ClassroomActivityView | null>(async (ids) =>
      byKey(
        ids,
        await fetchViews(read, ids, viewer.kind === 'user' ? viewer.user.id : null, ENTITY_VIEW),
        (found) => found.classroomActivity.id,
      ),
    ),
);
