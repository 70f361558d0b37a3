import type { Strict } from '../../core/strict.ts';
import type { PublishEditionPayloadResolvers, Resolvers } from '../types.generated.ts';
import type { PublishEditionPayloadMapper } from './mappers.ts';
import { publishEdition } from './operations.ts';

export const milestoneResolvers = {
  Mutation: {
    publishEdition: (_parent, _args, ctx) => publishEdition(ctx),
  },
  PublishEditionPayload: {} satisfies Strict<PublishEditionPayloadResolvers, PublishEditionPayloadMapper>,
} satisfies Resolvers;
