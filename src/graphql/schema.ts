import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSubgraphSchema, type GraphQLResolverMap } from '@apollo/subgraph';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { mergeResolvers } from '@graphql-tools/merge';
import type { IResolvers } from '@graphql-tools/utils';
import { parse, type GraphQLSchema } from 'graphql';
import { DateTimeResolver } from 'graphql-scalars';
import { JSONObjectScalar } from '../core/json.ts';
import { checkEntityRepresentations } from './entities.ts';
import { activityEntities } from '../modules/activities/entities.ts';
import { activityResolvers } from '../modules/activities/resolvers.ts';
import { classroomActivityEntities } from '../modules/classroom-activities/entities.ts';
import { classroomActivityResolvers } from '../modules/classroom-activities/resolvers.ts';
import type { GraphQLContext } from '../modules/context.ts';
import { milestoneResolvers } from '../modules/milestones/resolvers.ts';
import { SCHEMA_FILES } from '../modules/schema-files.ts';
import { userEntities } from '../modules/users/entities.ts';
import { userResolvers } from '../modules/users/resolvers.ts';
import { projectRoot } from '../paths.ts';

// The public schema, assembled from the modules' SDL and resolvers; with SUBGRAPH=1 an Apollo Federation 2
// subgraph of it (docs/federation.md): the modules' entity keys and their `__resolveReference`, `_service`
// and `_entities`. The REST shim's schema is the public one with an extension (src/rest/schema.ts).

export type SchemaExtension = { typeDefs: string; resolvers: IResolvers<unknown, GraphQLContext> };

/** The public schema's SDL, module by module (src/modules/schema-files.ts). */
export const publicTypeDefs = (): string[] => SCHEMA_FILES.map((file) => readFileSync(join(projectRoot, file), 'utf8'));

const resolvers = [
  { DateTime: DateTimeResolver, JSONObject: JSONObjectScalar },
  activityResolvers,
  classroomActivityResolvers,
  milestoneResolvers,
  userResolvers,
];

/** The entities each module offers a supergraph: their keys and how a representation finds its object. */
const entities = [activityEntities, classroomActivityEntities, userEntities];

const FEDERATION_LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.4", import: ["@key"])';

export function buildSchema({ extension, subgraph = false }: { extension?: SchemaExtension; subgraph?: boolean } = {}): GraphQLSchema {
  if (subgraph) {
    if (extension) throw new Error('The REST shim runs against the public schema, never the subgraph');
    const subgraphSchema = buildSubgraphSchema([
      {
        typeDefs: parse([...publicTypeDefs(), FEDERATION_LINK, ...entities.map((entity) => entity.typeDefs)].join('\n')),
        resolvers: mergeResolvers([...resolvers, ...entities.map((entity) => entity.resolvers)]) as GraphQLResolverMap,
      },
    ]);
    // A malformed representation is that item's BAD_USER_INPUT, not the list's 500 (src/graphql/entities.ts).
    return checkEntityRepresentations(subgraphSchema);
  }
  return makeExecutableSchema({
    typeDefs: [...publicTypeDefs(), ...(extension ? [extension.typeDefs] : [])],
    resolvers: [...resolvers, ...(extension ? [extension.resolvers] : [])],
    // A resolver for a field the schema does not have is a mistake, not a no-op.
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
