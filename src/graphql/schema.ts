import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { DateTimeResolver } from 'graphql-scalars';
import { activityResolvers } from '../modules/activities/resolvers.ts';
import { classroomActivityResolvers } from '../modules/classroom-activities/resolvers.ts';
import { milestoneResolvers } from '../modules/milestones/resolvers.ts';
import { userResolvers } from '../modules/users/resolvers.ts';
import { projectRoot } from '../paths.ts';
import { JSONObjectScalar, JSONScalar } from './json.ts';

export const schemaPath = join(projectRoot, 'schema.graphql');

export function buildSchema() {
  return makeExecutableSchema({
    typeDefs: readFileSync(schemaPath, 'utf8'),
    resolvers: [
      { DateTime: DateTimeResolver, JSON: JSONScalar, JSONObject: JSONObjectScalar },
      // The database stores these enums in lower case (codegen.ts `enumValues` says the same).
      { ActivitySessionState: { UNSTARTED: 'unstarted', STARTED: 'started', FINISHED: 'finished' } },
      { UserRole: { TEACHER: 'teacher', STUDENT: 'student', STAFF: 'staff' } },
      activityResolvers,
      classroomActivityResolvers,
      milestoneResolvers,
      userResolvers,
    ],
    // A resolver for a field the schema does not have is a mistake, not a no-op.
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
