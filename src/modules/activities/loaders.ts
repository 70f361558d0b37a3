import DataLoader from 'dataloader';
import { byKey, perRequest } from '../../core/load.ts';
import type { Activity, ActivityClassification } from '../../generated/prisma/client.ts';
import type { GraphQLContext } from '../context.ts';

export const activityById = perRequest(
  ({ db }: GraphQLContext) =>
    new DataLoader<number, Activity | null>(async (ids) =>
      byKey(ids, await db.activity.findMany({ where: { id: { in: [...ids] } } }), (row) => row.id),
    ),
);

export const classificationById = perRequest(
  ({ db }: GraphQLContext) =>
    new DataLoader<number, ActivityClassification | null>(async (ids) =>
      byKey(ids, await db.activityClassification.findMany({ where: { id: { in: [...ids] } } }), (row) => row.id),
    ),
);
