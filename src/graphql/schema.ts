import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { IResolvers } from '@graphql-tools/utils';
import { DateTimeResolver } from 'graphql-scalars';
import { JSONObjectScalar } from '../core/json.ts';
import { activityResolvers } from '../modules/activities/resolvers.ts';
import { classroomActivityResolvers } from '../modules/classroom-activities/resolvers.ts';
import type { GraphQLContext } from '../modules/context.ts';
import { milestoneResolvers } from '../modules/milestones/resolvers.ts';
import { userResolvers } from '../modules/users/resolvers.ts';
import { projectRoot } from '../paths.ts';

export const schemaPath = join(projectRoot, 'schema.graphql');

export type SchemaExtension = { typeDefs: string; resolvers: IResolvers<unknown, GraphQLContext> };

/**
 * The public schema (schema.graphql and the modules' resolvers), or that schema with an extension: the
 * REST shim runs its stored operations against one whose extra mutations /graphql never serves
 * (src/rest/schema.ts).
 */
export function buildSchema(extension?: SchemaExtension) {
  return makeExecutableSchema({
    typeDefs: extension ? [readFileSync(schemaPath, 'utf8'), extension.typeDefs] : readFileSync(schemaPath, 'utf8'),
    resolvers: [
      { DateTime: DateTimeResolver, JSONObject: JSONObjectScalar },
      activityResolvers,
      classroomActivityResolvers,
      milestoneResolvers,
      userResolvers,
      ...(extension ? [extension.resolvers] : []),
    ],
    // A resolver for a field the schema does not have is a mistake, not a no-op.
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
