import type { RequestContext } from '../context.ts';
import { classroomActivityById } from './operations.ts';

// ClassroomActivity as an entity of a supergraph (docs/federation.md): by its id, for its classroom's teachers.

export const classroomActivityEntities = {
  typeDefs: 'extend type ClassroomActivity @key(fields: "id")',
  resolvers: {
    ClassroomActivity: {
      __resolveReference: (reference: { id?: unknown }, ctx: RequestContext) => classroomActivityById(ctx, reference.id),
    },
  },
};
