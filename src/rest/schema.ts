import { GraphQLScalarType } from 'graphql';
import type { SchemaExtension } from '../graphql/schema.ts';
import { createActivity, updateActivity } from '../modules/activities/operations.ts';
import { finishLesson } from '../modules/classroom-activities/operations.ts';
import { activityInputFromBody, finishLessonInputFromBody, withBodyFieldNames } from './bodies.ts';

// The mutations only the REST shim's Apollo server runs (/graphql never serves them): a body arrives untyped,
// so that access is settled (404, 401, 403) by the same domain operation the public mutation runs before
// the body is translated and checked (400/413/422). Why: docs/decisions.md, REST bodies.

const typeDefs = /* GraphQL */ `
  "A request body as the REST shim read it: a JSON value, or the raw text when it was not JSON."
  scalar RestBody

  extend type Mutation {
    restFinishLesson(id: ID!, body: RestBody): FinishLessonPayload!
    restCreateActivity(body: RestBody): Activity!
    restUpdateActivity(id: ID!, body: RestBody): Activity!
  }
`;

// Only variables reach it (stored operations), and nothing walks them here: the translation reads the
// keys it knows, and the input's schema checks their values.
const RestBody = new GraphQLScalarType({
  name: 'RestBody',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: () => {
    throw new TypeError('RestBody is given as a variable');
  },
});

type WithId = { id: string };
type WithBody = { body?: unknown };

export const restSchemaExtension: SchemaExtension = {
  typeDefs,
  resolvers: {
    RestBody,
    Mutation: {
      restFinishLesson: (_parent: unknown, { id, body }: WithId & WithBody, ctx) =>
        withBodyFieldNames(() => finishLesson(ctx, id, () => finishLessonInputFromBody(body))),
      restCreateActivity: (_parent: unknown, { body }: WithBody, ctx) =>
        withBodyFieldNames(() => createActivity(ctx, () => activityInputFromBody(body))),
      restUpdateActivity: (_parent: unknown, { id, body }: WithId & WithBody, ctx) =>
        withBodyFieldNames(() => updateActivity(ctx, id, () => activityInputFromBody(body))),
    },
  },
};
