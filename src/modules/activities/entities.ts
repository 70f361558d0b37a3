import type { RequestContext } from '../context.ts';
import { activityByKey } from './operations.ts';

// Activity as an entity of a supergraph (docs/federation.md): by its numeric id or its uid, each a key.

export const activityEntities = {
  typeDefs: 'extend type Activity @key(fields: "id") @key(fields: "uid")',
  resolvers: {
    Activity: {
      __resolveReference: (reference: { id?: unknown; uid?: unknown }, ctx: RequestContext) => activityByKey(ctx, reference),
    },
  },
};
