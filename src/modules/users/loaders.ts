import DataLoader from 'dataloader';
import type { Db } from '../../db/client.ts';
import type { Milestone, Objective, User } from '../../generated/prisma/client.ts';
import { byKey, groupByKey } from '../../core/load.ts';

/** Made on first use, per request (see loadersOnFirstUse). */
export const userLoaders = {
  userById: (db: Db) =>
    new DataLoader<number, User | null>(async (ids) =>
      byKey(ids, await db.user.findMany({ where: { id: { in: [...ids] } } }), (row) => row.id),
    ),
  milestonesByUserId: (db: Db) =>
    new DataLoader<number, Milestone[]>(async (userIds) => {
      const rows = await db.userMilestone.findMany({
        where: { userId: { in: [...userIds] } },
        include: { milestone: true },
        orderBy: { id: 'asc' },
      });
      return groupByKey(userIds, rows, (row) => row.userId).map((group) => group.map((row) => row.milestone));
    }),
  objectivesByUserId: (db: Db) =>
    new DataLoader<number, Objective[]>(async (userIds) => {
      const rows = await db.userObjective.findMany({
        where: { userId: { in: [...userIds] } },
        include: { objective: true },
        orderBy: { id: 'asc' },
      });
      return groupByKey(userIds, rows, (row) => row.userId).map((group) => group.map((row) => row.objective));
    }),
};
