import DataLoader from 'dataloader';
import { byKey, loaderById, perRequest } from '../../core/load.ts';
import type { Activity } from '../../generated/prisma/client.ts';
import type { GraphQLContext } from '../context.ts';

export const activityById = loaderById(({ db }: GraphQLContext, ids) => db.activity.findMany({ where: { id: { in: ids } } }));

export const classificationById = loaderById(({ db }: GraphQLContext, ids) =>
  db.activityClassification.findMany({ where: { id: { in: ids } } }),
);

export const activityByUid = perRequest(
  ({ db }: GraphQLContext) =>
    new DataLoader<string, Activity | null>(async (uids) =>
      byKey(uids, await db.activity.findMany({ where: { uid: { in: [...uids] } } }), (row) => row.uid),
    ),
);
