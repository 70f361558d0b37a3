import type { CodegenConfig } from '@graphql-codegen/cli';
import { activitySessionStates } from './src/modules/classroom-activities/mappers.ts';
import { SCHEMA_FILES } from './src/modules/schema-files.ts';
import { userRoles } from './src/modules/users/mappers.ts';

// Resolver types for the public schema (the modules' SDL, src/modules/schema-files.ts), each GraphQL object
// mapped to the value it is resolved from (a Prisma model, or a module's mapper): a resolver that is missing
// or returns the wrong shape fails the type-check.

const model = (name: string) => `../generated/prisma/client.ts#${name} as ${name}Model`;
const mapper = (module: string, type: string) => `./${module}/mappers.ts#${type}Mapper`;

const config: CodegenConfig = {
  schema: SCHEMA_FILES,
  generates: {
    'src/modules/types.generated.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useIndexSignature: false,
        useTypeImports: true,
        enumsAsTypes: true,
        contextType: './context.ts#GraphQLContext',
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
  },
};

export default config;
