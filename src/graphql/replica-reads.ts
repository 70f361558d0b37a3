import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import { OperationTypeNode } from 'graphql';
import type { ReplicaSet } from '../db/replicas.ts';
import type { RequestContext } from '../modules/context.ts';

// Which server a GraphQL operation reads from (docs/operations.md, Read replicas): a query, over HTTP or a REST
// GET, on a replica that has what its caller and its answer need; everything else on the primary. After a
// caller's mutation, its position is kept and told to every instance before the answer leaves.

export type ReplicaReadsOptions = {
  replicas: ReplicaSet;
  /**
   * The public catalogue's version this instance vouches for now (src/http/catalogue-version.ts), when public
   * answers are tagged at all; a replica serving a caller without credentials must hold at least that.
   */
  catalogueVersion?: (() => string | undefined) | undefined;
};

export function replicaReadsPlugin({ replicas, catalogueVersion }: ReplicaReadsOptions): ApolloServerPlugin<BaseContext> {
  const listener: GraphQLRequestListener<BaseContext> = {
    async didResolveOperation({ operation, contextValue }) {
      if (operation?.operation !== OperationTypeNode.QUERY) return;
      const ctx = contextValue as RequestContext;
      const caller = ctx.viewer.kind === 'user' ? ctx.viewer.user.id : undefined;
      const catalogue = caller === undefined && catalogueVersion ? catalogueVersion() : null;
      const reader = replicas.reader({ caller, catalogue });
      ctx.read = reader.read;
      Object.defineProperty(ctx, 'db', { get: reader.prisma, configurable: true, enumerable: true });
      ctx.readsClassroomActivity = reader.readsClassroomActivity;
    },
    async willSendResponse({ operation, contextValue }) {
      const viewer = (contextValue as RequestContext).viewer;
      if (operation?.operation !== OperationTypeNode.MUTATION || viewer.kind !== 'user') return;
      // A failed one may have written nothing: its position costs one statement, and a replica a moment.
      await replicas.callerWrote(viewer.user.id).catch(() => {});
    },
  };
  return { requestDidStart: async () => listener };
}
