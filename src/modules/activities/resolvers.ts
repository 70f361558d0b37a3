import type { Strict } from '../../core/strict.ts';
import { planOncePerOperation, selectionAt } from '../look-ahead.ts';
import type { ActivityClassification } from '../../generated/prisma/client.ts';
import type {
  ActivityClassificationResolvers,
  ActivityConnectionResolvers,
  ActivityFlagResolvers,
  ActivityResolvers,
  Resolvers,
} from '../types.generated.ts';
import { activityById, classificationById } from './loaders.ts';
import type { ActivityConnectionMapper, ActivityFlagMapper, ActivityMapper } from './mappers.ts';
import * as activities from './operations.ts';
import { activityCursor } from './read.ts';

/** Whether the operation asks for a page's totalCount (counted in the page's own statement then). */
const countsTotal = planOncePerOperation((info) => selectionAt(info).has('totalCount'));

export const activityResolvers = {
  Query: {
    activity: (_parent, { id }, ctx) => activities.readActivity(ctx, id),
    activities: (_parent, args, ctx, info) => activities.listActivities(ctx, args, { withCount: countsTotal(info) }),
    activityFlags: (_parent, _args, ctx) => activities.activityFlags(ctx),
  },
  Mutation: {
    createActivity: (_parent, { input }, ctx) => activities.createActivity(ctx, input),
    updateActivity: (_parent, { id, input }, ctx) => activities.updateActivity(ctx, id, input),
    deleteActivity: (_parent, { id }, ctx) => activities.deleteActivity(ctx, id),
  },
  Activity: {
    flag: (activity) => activity.flags[0] ?? null,
    followUpActivity: (activity, _args, ctx) =>
      activity.followUpActivityId === null ? null : activityById(ctx).load(activity.followUpActivityId),
    classification: (activity, _args, ctx) =>
      activity.classification !== undefined
        ? activity.classification
        : activity.classificationId === null
          ? null
          : classificationById(ctx).load(activity.classificationId),
  } satisfies Strict<ActivityResolvers, ActivityMapper>,
  ActivityClassification: {} satisfies Strict<ActivityClassificationResolvers, ActivityClassification>,
  ActivityFlag: {} satisfies Strict<ActivityFlagResolvers, ActivityFlagMapper>,
  ActivityConnection: {
    edges: (page) => page.nodes.map((node) => ({ cursor: activityCursor(node.id), node })),
    pageInfo: (page) => ({
      hasNextPage: page.hasNextPage,
      endCursor: page.nodes.length > 0 ? activityCursor(page.nodes.at(-1)!.id) : null,
    }),
    totalCount: (page) => page.totalCount(),
  } satisfies Strict<ActivityConnectionResolvers, ActivityConnectionMapper>,
} satisfies Resolvers;
