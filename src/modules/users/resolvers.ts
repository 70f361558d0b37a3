import type { Strict } from '../../core/strict.ts';
import type { Milestone, Objective, User } from '../../generated/prisma/client.ts';
import type { MilestoneResolvers, ObjectiveResolvers, Resolvers, UserResolvers } from '../types.generated.ts';
import { userRoles } from './mappers.ts';
import * as users from './operations.ts';

export const userResolvers = {
  Query: {
    viewer: (_parent, _args, ctx) => users.viewer(ctx),
  },
  User: {
    milestones: (user, _args, ctx) => users.milestonesOf(ctx, user),
    objectives: (user, _args, ctx) => users.objectivesOf(ctx, user),
  } satisfies Strict<UserResolvers, User>,
  UserRole: userRoles,
  Milestone: {} satisfies Strict<MilestoneResolvers, Milestone>,
  Objective: {} satisfies Strict<ObjectiveResolvers, Objective>,
} satisfies Resolvers;
