import type { CodegenConfig } from '@graphql-codegen/cli';
import { activitySessionStates } from './src/modules/classroom-activities/mappers.ts';
import { SCHEMA_FILES } from './src/modules/schema-files.ts';
import { userRoles } from './src/modules/users/mappers.ts';

// Over the modules' SDL (src/modules/schema-files.ts): resolver types, each object mapped to the value it is
// resolved from, so a missing or mis-shaped resolver fails the type-check; the REST shim's stored operations,
// typed, in src/rest/gql/; and the suite's `graphql(`...`)` documents, typed, in tests/kit/gql/ (docs/testing.md).

const model = (name: string) => `../generated/prisma/client.ts#${name} as ${name}Model`;
const mapper = (module: string, type: string) => `./${module}/mappers.ts#${type}Mapper`;

const config: CodegenConfig = {
  schema: SCHEMA_FILES,
  // Only the kit's `graphql(`...`)` calls are the suite's documents: not the `gql` tags of the client libraries
  // some tests drive (urql, Apollo Client), whose documents are theirs.
  pluckConfig: { modules: [], globalGqlIdentifierName: ['graphql'] },
  generates: {
    'src/modules/types.generated.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useIndexSignature: false,
        useTypeImports: true,
        enumsAsTypes: true,
        contextType: './context.ts#RequestContext',
        scalars: {
          ID: { input: 'string', output: 'string | number' },
          DateTime: { input: 'Date', output: 'Date | string' },
          JSONObject: { input: 'Record<string, unknown>', output: 'unknown' },
        },
        enumValues: { ActivitySessionState: activitySessionStates, UserRole: userRoles },
        mappers: {
          Activity: mapper('activities', 'Activity'),
          ActivityConnection: mapper('activities', 'ActivityConnection'),
          ActivityFlag: mapper('activities', 'ActivityFlag'),
          ActivityClassification: model('ActivityClassification'),
          ClassroomActivity: mapper('classroom-activities', 'ClassroomActivity'),
          ActivitySession: mapper('classroom-activities', 'ActivitySession'),
          ConceptResult: mapper('classroom-activities', 'ConceptResult'),
          FinishLessonPayload: mapper('classroom-activities', 'FinishLessonPayload'),
          LessonEvent: mapper('classroom-activities', 'LessonEvent'),
          Classroom: model('Classroom'),
          Unit: model('Unit'),
          Concept: model('Concept'),
          User: model('User'),
          Milestone: model('Milestone'),
          Objective: model('Objective'),
          PublishEditionPayload: mapper('milestones', 'PublishEditionPayload'),
        },
      },
    },
    // The REST shim's stored operations (src/rest/routes.ts): each route's answer mapper reads its document's type.
    'src/rest/gql/': {
      documents: ['src/rest/routes.ts'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumType: 'string-literal',
        importExtension: '.ts',
        // Stored as text, as Apollo's executeOperation is handed it.
        documentMode: 'string',
        scalars: {
          ID: { input: 'string | number', output: 'string' },
          DateTime: { input: 'string', output: 'string' },
          JSONObject: { input: 'Record<string, unknown>', output: 'Record<string, unknown>' },
        },
      },
    },
    'tests/kit/gql/': {
      documents: ['tests/**/*.ts', '!tests/kit/gql/**'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumType: 'string-literal',
        importExtension: '.ts',
        // As the answers arrive: JSON.
        scalars: {
          ID: { input: 'string | number', output: 'string' },
          DateTime: { input: 'string', output: 'string' },
          JSONObject: { input: 'Record<string, unknown>', output: 'Record<string, unknown>' },
        },
      },
    },
  },
};

export default config;
