import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSubgraphSchema, type GraphQLResolverMap } from '@apollo/subgraph';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { mergeResolvers } from '@graphql-tools/merge';
import { GraphQLScalarType, Kind, parse, visit, type DocumentNode, type GraphQLSchema } from 'graphql';
import { DateTimeResolver } from 'graphql-scalars';
import { JSONObjectScalar } from '../core/json.ts';
import { checkEntityRepresentations } from './entities.ts';
import { activityEntities } from '../modules/activities/entities.ts';
import { activityResolvers } from '../modules/activities/resolvers.ts';
import { classroomActivityEntities } from '../modules/classroom-activities/entities.ts';
import { classroomActivityResolvers } from '../modules/classroom-activities/resolvers.ts';
import { milestoneResolvers } from '../modules/milestones/resolvers.ts';
import { SCHEMA_FILES } from '../modules/schema-files.ts';
import { userEntities } from '../modules/users/entities.ts';
import { userResolvers } from '../modules/users/resolvers.ts';
import { projectRoot } from '../paths.ts';

// The public schema, assembled from the modules' SDL and resolvers; with SUBGRAPH=1 an Apollo Federation 2
// subgraph of it (docs/federation.md): the modules' entity keys and their `__resolveReference`, `_service`
// and `_entities`. The REST shim's schema is the public one whose body inputs are taken as given (src/rest/schema.ts).

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

/**
 * The SDL with each named input object type made a scalar of the same name, whose value the resolver is
 * given as it came: the same documents validate, and the operation reads the value (src/rest/schema.ts).
 */
function withInputsAsGiven(typeDefs: string[], names: readonly string[]): { typeDefs: DocumentNode; scalars: GraphQLScalarType[] } {
  const found = new Set<string>();
  const document = visit(parse(typeDefs.join('\n')), {
    InputObjectTypeDefinition(node) {
      if (!names.includes(node.name.value)) return undefined;
      found.add(node.name.value);
      return { kind: Kind.SCALAR_TYPE_DEFINITION, name: node.name, description: node.description };
    },
  });
  const missing = names.filter((name) => !found.has(name));
  if (missing.length > 0) throw new Error(`Not input types of the public schema: ${missing.join(', ')}`);
  const scalars = names.map(
    (name) =>
      new GraphQLScalarType({
        name,
        serialize: (value) => value,
        parseValue: (value) => value,
        parseLiteral: () => {
          throw new TypeError(`${name} is given as a variable`);
        },
      }),
  );
  return { typeDefs: document, scalars };
}

export function buildSchema({
  inputsAsGiven = [],
  subgraph = false,
}: { inputsAsGiven?: readonly string[]; subgraph?: boolean } = {}): GraphQLSchema {
  if (subgraph) {
    if (inputsAsGiven.length > 0) throw new Error('The REST shim runs against the public schema, never the subgraph');
    const subgraphSchema = buildSubgraphSchema([
      {
        typeDefs: parse([...publicTypeDefs(), FEDERATION_LINK, ...entities.map((entity) => entity.typeDefs)].join('\n')),
        resolvers: mergeResolvers([...resolvers, ...entities.map((entity) => entity.resolvers)]) as GraphQLResolverMap,
      },
    ]);
    // A malformed representation is that item's BAD_USER_INPUT, not the list's 500 (src/graphql/entities.ts).
    return checkEntityRepresentations(subgraphSchema);
  }
  const { typeDefs, scalars } = withInputsAsGiven(publicTypeDefs(), inputsAsGiven);
  return makeExecutableSchema({
    typeDefs,
    resolvers: [...resolvers, Object.fromEntries(scalars.map((scalar) => [scalar.name, scalar]))],
    // A resolver for a field the schema does not have is a mistake, not a no-op.
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
