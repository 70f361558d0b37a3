import { requireUser } from '../../auth/guards.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { PublishEditionResult } from '../../graphql/mappers.ts';
import type { Strict } from '../../core/strict.ts';
import type { PublishEditionPayloadResolvers, Resolvers } from '../../graphql/types.generated.ts';
import { publishEdition } from './service.ts';

export const milestoneResolvers = {
  Mutation: {
    publishEdition: async (_parent, _args, ctx) => {
      const user = requireUser(ctx.viewer);
      await inTransaction(ctx.db, (tx) => publishEdition(tx, user.id));
      return { user };
    },
  },
  PublishEditionPayload: {} satisfies Strict<PublishEditionPayloadResolvers, PublishEditionResult>,
} satisfies Resolvers;
