import { allowAnonymous } from '../../auth/guards.ts';
import type { User as UserModel, Milestone as MilestoneModel, Objective as ObjectiveModel } from '../../generated/prisma/client.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { forbidden } from '../../core/errors.ts';
import type { Strict } from '../../core/strict.ts';
import type { MilestoneResolvers, ObjectiveResolvers, Resolvers, UserResolvers } from '../../graphql/types.generated.ts';

/** A user's milestones and objectives are theirs alone to read. */
function requireSelf(user: UserModel, ctx: GraphQLContext): void {
  const viewer = allowAnonymous(ctx.viewer);
  if (viewer?.id !== user.id) throw forbidden("Only the user themself may read this user's milestones and objectives");
}

export const userResolvers = {
  Query: {
    viewer: (_parent, _args, ctx) => allowAnonymous(ctx.viewer),
  },
  User: {
    milestones: (user, _args, ctx) => {
      requireSelf(user, ctx);
      return ctx.loaders.milestonesByUserId.load(user.id);
    },
    objectives: (user, _args, ctx) => {
      requireSelf(user, ctx);
      return ctx.loaders.objectivesByUserId.load(user.id);
    },
  } satisfies Strict<UserResolvers, UserModel>,
  Milestone: {} satisfies Strict<MilestoneResolvers, MilestoneModel>,
  Objective: {} satisfies Strict<ObjectiveResolvers, ObjectiveModel>,
} satisfies Resolvers;
