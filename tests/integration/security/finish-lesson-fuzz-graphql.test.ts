// The GraphQL face of the finish_lesson fuzz: the same hostile inputs, camelCased, sent as variables of
// finishLesson by the owner, plus hostile ids, inputs of the wrong shape and literals in the document.
// Always a client error (BAD_USER_INPUT, GRAPHQL_VALIDATION_FAILED, PAYLOAD_TOO_LARGE), never
// INTERNAL_SERVER_ERROR, no data, and the database byte-for-byte unchanged.

import fc from 'fast-check';
import { expect, it } from 'vitest';
import { gatewayForTests } from '../../kit/gateway.ts';
import { ids, tokens } from '../../kit/fixture.ts';
import { FINISH_LESSON_MUTATION } from '../../kit/finish-lesson.ts';
import { digest, invalidObjectBody, junk, notAnObjectBody, SEED, tooManyBody } from './hostile.ts';

export const RUNS = 300;

const camel: Record<string, string> = {
  follow_up: 'followUp',
  edition_id: 'editionId',
  concept_results: 'conceptResults',
  activity_session_uid: 'activitySessionUid',
  concept_uid: 'conceptUid',
  question_type: 'questionType',
};

/** The legacy body in GraphQL's vocabulary (keys renamed at the top level and in each concept result). */
function toInput(body: unknown): unknown {
  const rename = (value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).map(([key, item]) => [camel[key] ?? key, item]))
      : value;
  const input = rename(body) as Record<string, unknown>;
  if (input && typeof input === 'object' && Array.isArray(input.conceptResults)) input.conceptResults = input.conceptResults.map(rename);
  return input;
}

/** Wrong GraphQL literals for each argument of the input, written into the document itself. */
const literalQuery = fc
  .tuple(
    fc.constantFrom('followUp', 'editionId', 'conceptResults'),
    fc.constantFrom('"yes"', '1', '1.5', '[true]', '{a: 1}', 'null', 'NOPE', '$undeclared', '""', '{}', '[{}]', '[null]'),
  )
  // (null is absent for the optional fields, and any non-blank string is a fine edition id.)
  .filter(([field, literal]) => !(literal === 'null' && field !== 'conceptResults') && !(field === 'editionId' && literal === '"yes"'))
  .map(([field, literal]) => `mutation { finishLesson(id: "${ids.classroomActivity}", input: { ${field}: ${literal} }) { followUpUrl } }`);

type GraphQLCase = { query: string; variables: Record<string, unknown> };

const cases: fc.Arbitrary<GraphQLCase> = fc.oneof(
  {
    arbitrary: invalidObjectBody.map(({ body }) => ({
      query: FINISH_LESSON_MUTATION,
      variables: { id: String(ids.classroomActivity), input: toInput(body) },
    })),
    weight: 6,
  },
  {
    arbitrary: notAnObjectBody.map(({ body }) => ({
      query: FINISH_LESSON_MUTATION,
      variables: { id: String(ids.classroomActivity), input: body },
    })),
    weight: 2,
  },
  {
    arbitrary: tooManyBody.map(({ body }) => ({
      query: FINISH_LESSON_MUTATION,
      variables: { id: String(ids.classroomActivity), input: toInput(body) },
    })),
    weight: 1,
  },
  // The id itself of the wrong type; the input fine.
  {
    arbitrary: fc
      .oneof(
        fc.constant(null),
        fc.boolean(),
        fc.array(junk, { maxLength: 2 }),
        fc.dictionary(fc.string({ maxLength: 4 }), junk, { maxKeys: 2 }),
        fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
      )
      .map((id) => ({ query: FINISH_LESSON_MUTATION, variables: { id, input: {} } })),
    weight: 1,
  },
  { arbitrary: literalQuery.map((query) => ({ query, variables: {} })), weight: 1 },
);

const CLIENT_CODES = ['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE'];

const gateway = gatewayForTests();

it(`rejects ${RUNS} generated finishLesson variables and documents as client errors, changing nothing`, async () => {
  const started = Date.now();
  const before = await gateway.snapshot();
  const baseline = await digest(gateway);
  let runs = 0;
  const codes: Record<string, number> = {};
  await fc.assert(
    fc.asyncProperty(cases, async ({ query, variables }) => {
      runs += 1;
      const answer = await gateway.graphql(query, variables, tokens.owner);
      const unchanged = (await digest(gateway)) === baseline;
      if (!unchanged) await gateway.reset();
      const text = JSON.stringify(answer).slice(0, 400);
      expect(unchanged, 'the database changed').toBe(true);
      // A `__proto__` key in the request body is refused by Fastify's JSON parser before GraphQL sees it.
      // (Fastify's own error, or the gateway's `meta` envelope for it: either way a 400 and nothing ran.)
      const refused = answer as { code?: string; meta?: { status?: string } };
      if (!answer.errors && (refused.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || refused.meta?.status === 'bad_request')) {
        expect(answer.status, text).toBe(400);
        expect(answer.data).toBeUndefined();
        codes.BODY_REFUSED = (codes.BODY_REFUSED ?? 0) + 1;
        return;
      }
      expect(answer.errors?.length ?? 0, text).toBeGreaterThan(0);
      const code = answer.errors![0]!.extensions?.code as string;
      codes[code] = (codes[code] ?? 0) + 1;
      for (const error of answer.errors!) {
        expect(error.extensions?.code, text).not.toBe('INTERNAL_SERVER_ERROR');
        expect(CLIENT_CODES, text).toContain(error.extensions?.code);
        expect(error.extensions?.stacktrace).toBeUndefined();
      }
      expect(answer.data?.finishLesson ?? null).toBeNull();
      expect([200, 400, 413]).toContain(answer.status);
      expect(unchanged, 'the database changed').toBe(true);
    }),
    { seed: SEED + 2, numRuns: RUNS, endOnFailure: true },
  );
  expect(runs).toBe(RUNS);
  expect(await gateway.snapshot()).toBe(before);
  console.info(`finishLesson fuzz (GraphQL): ${RUNS} cases in ${Date.now() - started} ms; first error codes ${JSON.stringify(codes)}`);
}, 120_000);
