import { allowAnonymous, requireUser } from '../../auth/guards.ts';
import { forbidden } from '../../core/errors.ts';
import type { Milestone, Objective, User } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../context.ts';
import { milestonesByUserId, objectivesByUserId } from './loaders.ts';

// Who is signed in, and what only they may read of themselves.

export const viewer = (ctx: RequestContext): User | null => allowAnonymous(ctx.viewer);

/** A user's milestones and objectives are theirs alone to read. */
function requireSelf(ctx: RequestContext, user: User): void {
  if (allowAnonymous(ctx.viewer)?.id !== user.id) throw forbidden("Only the user themself may read this user's milestones and objectives");
}

export function milestonesOf(ctx: RequestContext, user: User): Promise<Milestone[]> {
  requireSelf(ctx, user);
  return milestonesByUserId(ctx).load(user.id);
}

export function objectivesOf(ctx: RequestContext, user: User): Promise<Objective[]> {
  requireSelf(ctx, user);
  return objectivesByUserId(ctx).load(user.id);
}

/**
 * A user a supergraph names by id (src/modules/users/entities.ts), as the root field `viewer` reads users:
 * the signed-in user's own, no other (FORBIDDEN), and UNAUTHENTICATED when nobody is signed in.
 */
export function userById(ctx: RequestContext, id: unknown): User {
  const user = requireUser(ctx.viewer);
  if (String(id) !== String(user.id)) throw forbidden('Only the user themself may read this user');
  return user;
}
