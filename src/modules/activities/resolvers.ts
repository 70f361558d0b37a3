import { allowAnonymous, requireStaff } from '../../auth/guards.ts';
import type { Activity } from '../../generated/prisma/client.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { notFound } from '../../core/errors.ts';
import { selectionAt } from '../../core/look-ahead.ts';
import type { Activity as ActivityModel, ActivityClassification as ActivityClassificationModel } from '../../generated/prisma/client.ts';
import type {
  Resolvers,
  ActivityResolvers,
  ActivityFlagResolvers,
  ActivityConnectionResolvers,
  ActivityClassificationResolvers,
} from '../../graphql/types.generated.ts';
import type { ActivityPage, ActivityUidAndFlag } from '../../graphql/mappers.ts';
import type { Strict } from '../../core/strict.ts';
import { inTransaction } from '../../db/transaction.ts';
import { parseActivityChanges, parseNewActivity } from './input.ts';
import * as activities from './service.ts';

/**
 * The classification read with an activity, for its `classification` field: answered as a value, not
 * through the loader's promise (measured on the hottest read: README, Performance).
 */
const classificationReadWith = new WeakMap<Activity, ActivityClassificationModel | null>();

/** The activity `id`, or null; its classification, read with it, goes to the field that reads it. */
async function readActivity(ctx: GraphQLContext, id: string): Promise<Activity | null> {
  const found = await activities.findActivity(ctx.read, id);
  if (!found) return null;
  classificationReadWith.set(found.activity, found.classification);
  return found.activity;
}

/** The activity named by a path or argument id, else NOT_FOUND; then the caller's own check. */
async function existingActivity(ctx: GraphQLContext, id: string): Promise<Activity> {
  const activity = await readActivity(ctx, id);
  if (!activity) throw notFound();
  return activity;
}

/**
 * Staff create an activity. `readInput` is called once access is settled (401, 403 before the input's
 * own errors): CreateActivityInput's shape, from the mutation or from a body translated into it.
 */
export async function createActivityAsStaff(ctx: GraphQLContext, readInput: () => unknown): Promise<Activity> {
  requireStaff(ctx.viewer);
  const fields = parseNewActivity(readInput());
  return inTransaction(ctx.db, (tx) => activities.createActivity(tx, fields));
}

/** Staff update an activity: NOT_FOUND, then 401/403, then the input (UpdateActivityInput's shape). */
export async function updateActivityAsStaff(ctx: GraphQLContext, id: string, readInput: () => unknown): Promise<Activity> {
  const activity = await existingActivity(ctx, id);
  requireStaff(ctx.viewer);
  const changes = parseActivityChanges(readInput());
  return inTransaction(ctx.db, (tx) => activities.updateActivity(tx, activity, changes));
}

const firstFlag = (flags: string[]) => flags[0] ?? null;

export const activityResolvers = {
  Query: {
    activity: async (_parent, { id }, ctx) => {
      const activity = await readActivity(ctx, id);
      if (activity) allowAnonymous(ctx.viewer);
      return activity;
    },
    activities: (_parent, args, ctx, info) => {
      allowAnonymous(ctx.viewer);
      return activities.listActivities(ctx.read, args, { withCount: selectionAt(info).has('totalCount') });
    },
    activityFlags: (_parent, _args, ctx) => {
      allowAnonymous(ctx.viewer);
      return activities.activityFlags(ctx.read);
    },
  },
  Mutation: {
    createActivity: (_parent, { input }, ctx) => createActivityAsStaff(ctx, () => input),
    updateActivity: (_parent, { id, input }, ctx) => updateActivityAsStaff(ctx, id, () => input),
    deleteActivity: async (_parent, { id }, ctx) => {
      const activity = await existingActivity(ctx, id);
      requireStaff(ctx.viewer);
      await inTransaction(ctx.db, (tx) => activities.deleteActivity(tx, activity));
      return { id: activity.id };
    },
  },
  Activity: {
    flag: (activity) => firstFlag(activity.flags),
    followUpActivity: (activity, _args, ctx) =>
      activity.followUpActivityId === null ? null : ctx.loaders.activityById.load(activity.followUpActivityId),
    classification: (activity, _args, ctx) =>
      classificationReadWith.get(activity) ??
      (activity.classificationId === null ? null : ctx.loaders.classificationById.load(activity.classificationId)),
  } satisfies Strict<ActivityResolvers, ActivityModel>,
  ActivityClassification: {} satisfies Strict<ActivityClassificationResolvers, ActivityClassificationModel>,
  ActivityFlag: {} satisfies Strict<ActivityFlagResolvers, ActivityUidAndFlag>,
  ActivityConnection: {
    edges: (page) => page.nodes.map((node) => ({ cursor: activities.activityCursor(node.id), node })),
    pageInfo: (page) => ({
      hasNextPage: page.hasNextPage,
      endCursor: page.nodes.length > 0 ? activities.activityCursor(page.nodes.at(-1)!.id) : null,
    }),
    totalCount: (page) => page.totalCount(),
  } satisfies Strict<ActivityConnectionResolvers, ActivityPage>,
} satisfies Resolvers;
