import type { CodegenConfig } from '@graphql-codegen/cli';

// Resolver types for schema.graphql, with each GraphQL object mapped to the Prisma model it is
// resolved from: a resolver that is missing or returns the wrong shape fails the type-check.
const model = (name: string) => `../generated/prisma/client.ts#${name} as ${name}Model`;

const config: CodegenConfig = {
  schema: 'schema.graphql',
  generates: {
    'src/graphql/types.generated.ts': {
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
        enumValues: {
          ActivitySessionState: { UNSTARTED: 'unstarted', STARTED: 'started', FINISHED: 'finished' },
          UserRole: { TEACHER: 'teacher', STUDENT: 'student', STAFF: 'staff' },
        },
        mappers: {
          Activity: model('Activity'),
          ActivityClassification: model('ActivityClassification'),
          ClassroomActivity: model('ClassroomActivity'),
          Classroom: model('Classroom'),
          Unit: model('Unit'),
          ActivitySession: './mappers.ts#SessionWithStudent',
          Concept: model('Concept'),
          ConceptResult: './mappers.ts#ConceptResultWithConcept',
          User: model('User'),
          Milestone: model('Milestone'),
          Objective: model('Objective'),
          FinishLessonPayload: './mappers.ts#FinishLessonResult',
          PublishEditionPayload: './mappers.ts#PublishEditionResult',
          ActivityConnection: './mappers.ts#ActivityPage',
          ActivityFlag: './mappers.ts#ActivityUidAndFlag',
        },
      },
    },
  },
};

export default config;
