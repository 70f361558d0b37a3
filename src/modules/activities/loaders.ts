import DataLoader from 'dataloader';
import type { Db } from '../../db/client.ts';
import { byKey } from '../../graphql/load.ts';

export function createActivityLoaders(db: Db) {
  return {
    activityById: new DataLoader<number, Awaited<ReturnType<typeof db.activity.findUnique>>>(async (ids) =>
      byKey(ids, await db.activity.findMany({ where: { id: { in: [...ids] } } }), (row) => row.id),
    ),
    classificationById: new DataLoader<number, Awaited<ReturnType<typeof db.activityClassification.findUnique>>>(async (ids) =>
      byKey(ids, await db.activityClassification.findMany({ where: { id: { in: [...ids] } } }), (row) => row.id),
    ),
  };
}
