import { assertAccess } from '../../auth/access.ts';
import type { Milestone, Objective, User } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../context.ts';
import { milestonesByUserId, objectivesByUserId } from './loaders.ts';

// Who is signed in, and what only they may read of themselves.

export const viewer = (ctx: RequestContext): User | null => assertAccess(ctx.viewer, 'viewer.read');

/** A user's milestones and objectives are theirs alone to read. */
export function milestonesOf(ctx: RequestContext, user: User): Promise<Milestone[]> {
  assertAccess(ctx.viewer, 'user.readProgress', { userId: user.id });
  return milestonesByUserId(ctx).load(user.id);
}

export function objectivesOf(ctx: RequestContext, user: User): Promise<Objective[]> {
  assertAccess(ctx.viewer, 'user.readProgress', { userId: user.id });
  return objectivesByUserId(ctx).load(user.id);
}

/**
 * A user a supergraph names by id (src/modules/users/entities.ts), as the root field `viewer` reads users:
 * the signed-in user's own, no other (FORBIDDEN), and UNAUTHENTICATED when nobody is signed in.
 */
export function userById(ctx: RequestContext, id: unknown): User {
  return assertAccess(ctx.viewer, 'user.read', { userId: id });
}
