import DataLoader from 'dataloader';
import type { Db } from '../../db/client.ts';
import { byKey } from '../../core/load.ts';

/** Made on first use, per request (see loadersOnFirstUse). */
export const activityLoaders = {
  activityById: (db: Db) =>
    new DataLoader<number, Awaited<ReturnType<typeof db.activity.findUnique>>>(async (ids) =>
      byKey(ids, await db.activity.findMany({ where: { id: { in: [...ids] } } }), (row) => row.id),
    ),
  classificationById: (db: Db) =>
    new DataLoader<number, Awaited<ReturnType<typeof db.activityClassification.findUnique>>>(async (ids) =>
      byKey(ids, await db.activityClassification.findMany({ where: { id: { in: [...ids] } } }), (row) => row.id),
    ),
};
