// The public schema in parts, each module's beside its resolvers (the roots, scalars and the schema's own
// description in src/modules/schema.graphql): src/graphql/schema.ts assembles them, codegen.ts reads them,
// and `npm run schema:print` writes them as one schema.graphql, the file clients and CI compare.
export const SCHEMA_FILES = [
  'src/modules/schema.graphql',
  'src/modules/activities/schema.graphql',
  'src/modules/classroom-activities/schema.graphql',
  'src/modules/users/schema.graphql',
  'src/modules/milestones/schema.graphql',
];
