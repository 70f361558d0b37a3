import DataLoader from 'dataloader';
import { groupByKey, perRequest } from '../../core/load.ts';
import type { Milestone, Objective } from '../../generated/prisma/client.ts';
import type { GraphQLContext } from '../context.ts';

export const milestonesByUserId = perRequest(
  ({ db }: GraphQLContext) =>
    new DataLoader<number, Milestone[]>(async (userIds) => {
      const rows = await db.userMilestone.findMany({
        where: { userId: { in: [...userIds] } },
        include: { milestone: true },
        orderBy: { id: 'asc' },
      });
      return groupByKey(userIds, rows, (row) => row.userId).map((group) => group.map((row) => row.milestone));
    }),
);

export const objectivesByUserId = perRequest(
  ({ db }: GraphQLContext) =>
    new DataLoader<number, Objective[]>(async (userIds) => {
      const rows = await db.userObjective.findMany({
        where: { userId: { in: [...userIds] } },
        include: { objective: true },
        orderBy: { id: 'asc' },
      });
      return groupByKey(userIds, rows, (row) => row.userId).map((group) => group.map((row) => row.objective));
    }),
);
