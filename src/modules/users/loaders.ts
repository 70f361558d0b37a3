import { loaderOfGroups } from '../../core/load.ts';
import type { RequestContext } from '../context.ts';

export const milestonesByUserId = loaderOfGroups(
  ({ db }: RequestContext, userIds) =>
    db.userMilestone.findMany({ where: { userId: { in: userIds } }, include: { milestone: true }, orderBy: { id: 'asc' } }),
  (row) => row.userId,
  (row) => row.milestone,
);

export const objectivesByUserId = loaderOfGroups(
  ({ db }: RequestContext, userIds) =>
    db.userObjective.findMany({ where: { userId: { in: userIds } }, include: { objective: true }, orderBy: { id: 'asc' } }),
  (row) => row.userId,
  (row) => row.objective,
);
