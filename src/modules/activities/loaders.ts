import DataLoader from 'dataloader';
import { byKey, loaderById, perRequest } from '../../core/load.ts';
import type { Activity } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../context.ts';

export const activityById = loaderById(({ db }: RequestContext, ids) => db.activity.findMany({ where: { id: { in: ids } } }));

export const classificationById = loaderById(({ db }: RequestContext, ids) =>
  db.activityClassification.findMany({ where: { id: { in: ids } } }),
);

export const activityByUid = perRequest(
  ({ db }: RequestContext) =>
    new DataLoader<string, Activity | null>(async (uids) =>
      byKey(uids, await db.activity.findMany({ where: { uid: { in: [...uids] } } }), (row) => row.uid),
    ),
);
