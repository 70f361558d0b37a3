import type { RequestContext } from '../context.ts';
import { userById } from './operations.ts';

// User as an entity of a supergraph (docs/federation.md): by its id, which is the platform's own user id.

export const userEntities = {
  typeDefs: 'extend type User @key(fields: "id")',
  resolvers: {
    // Async, so that a refusal is this one representation's error: a synchronous throw would fail the whole list.
    User: { __resolveReference: async (reference: { id?: unknown }, ctx: RequestContext) => userById(ctx, reference.id) },
  },
};
