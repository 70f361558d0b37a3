import { loaderById } from '../../core/load.ts';
import type { GraphQLContext } from '../context.ts';

export const activityById = loaderById(({ db }: GraphQLContext, ids) => db.activity.findMany({ where: { id: { in: ids } } }));

export const classificationById = loaderById(({ db }: GraphQLContext, ids) =>
  db.activityClassification.findMany({ where: { id: { in: ids } } }),
);
