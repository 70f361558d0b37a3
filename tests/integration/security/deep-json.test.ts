// Every JSON value a client sends — finish_lesson metadata, activity data, GraphQL JSONObject variables and
// literals — nests at most 32 levels: deeper is a 422 (BAD_USER_INPUT in GraphQL) naming the field, and
// nothing changes. A 5,000-level value in a 30 KB body used to overflow the stack (a 500) and, beside
// large requests, abort the process. Wide values within the body limit are stored as sent.

import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { ids, legacyResult, tokens, uids } from '../../kit/fixture.ts';
import { digest, SEED } from './hostile.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway?.close());
beforeEach(() => gateway.reset());

type Shape = 'object' | 'array' | 'mixed';

// Deep values travel as JSON text built by repetition: JSON.stringify itself recurses, and a 5,000-level
// value overflows its stack in the test as it did in the gateway.
const DEEP = '__DEEP_VALUE__';

/** JSON text of a value `levels` containers deep (the outermost counts). */
function nestedText(levels: number, shape: Shape = 'object'): string {
  const opens: string[] = [];
  for (let level = 0; level < levels; level += 1) opens.push(shape === 'array' || (shape === 'mixed' && level % 2 === 1) ? '[' : '{"a":');
  return (
    opens.join('') +
    '1' +
    opens
      .reverse()
      .map((open) => (open === '[' ? ']' : '}'))
      .join('')
  );
}

/** `{"ok": "yes", "deep": <levels - 1 deep>}`, with `width` ordinary keys beside: `levels` deep in all. */
const deepObject = (levels: number, shape: Shape = 'object', width = 0) =>
  `{${Array.from({ length: width }, (_, index) => `"k${index}":${index},`).join('')}"ok":"yes","deep":${nestedText(levels - 1, shape)}}`;

/** JSON text of `body`, with `valueText` where the DEEP marker sits. */
const withValue = (body: unknown, valueText: string) => JSON.stringify(body).replace(`"${DEEP}"`, () => valueText);

const finishPath = `/api/v1/classroom_activities/${ids.classroomActivity}/finish_lesson`;
const FINISH = `mutation ($id: ID!, $input: FinishLessonInput!) { finishLesson(id: $id, input: $input) { followUpUrl } }`;
const CREATE = `mutation ($input: CreateActivityInput!) { createActivity(input: $input) { uid data } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { uid data } }`;

/** One way a client sends a JSON value (as JSON text): answers the status, the GraphQL error code, the REST fields named. */
type Face = {
  name: string;
  field: string;
  send: (valueText: string) => Promise<{ status: number; code?: string; fields?: string[]; text: string }>;
};

const rest = async (method: 'PUT' | 'POST', path: string, token: string, body: unknown, valueText: string) => {
  const answer = await gateway.rest(method, path, {
    token,
    payload: withValue(body, valueText),
    headers: { 'content-type': 'application/json' },
  });
  return { status: answer.status, fields: Object.keys(answer.body?.meta?.errors ?? {}), text: answer.text.slice(0, 400) };
};
const graphql = async (query: string, variables: Record<string, unknown>, token: string, valueText: string) => {
  const response = await gateway.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: withValue({ query, variables }, valueText),
  });
  const answer = JSON.parse(response.body);
  return {
    status: response.statusCode,
    code: answer.errors?.[0]?.extensions?.code as string | undefined,
    text: response.body.slice(0, 400),
  };
};
const metadata = { correct: 1, attemptNumber: 1, questionNumber: 1 };
const graphqlResult = {
  activitySessionUid: uids.sessions.ben,
  conceptUid: uids.concepts.parallel,
  questionType: 'lessons-slide',
  metadata: { ...metadata, extra: DEEP },
};

const faces: Face[] = [
  {
    name: 'REST finish_lesson metadata',
    field: 'concept_results[0].metadata',
    // The metadata object itself is the value: its own keys sit beside the deep branch.
    send: (value) =>
      rest(
        'PUT',
        finishPath,
        tokens.owner,
        { concept_results: [{ ...legacyResult(uids.sessions.ben), metadata: DEEP }] },
        value.replace('{', `{"correct":1,"attemptNumber":1,"questionNumber":1,`),
      ),
  },
  {
    name: 'REST activity create data',
    field: 'data',
    send: (value) => rest('POST', '/api/v1/activities', tokens.staff, { activity: { name: 'Deep', data: DEEP } }, value),
  },
  {
    name: 'REST activity update data',
    field: 'data',
    send: (value) => rest('PUT', `/api/v1/activities/${uids.lesson}`, tokens.staff, { activity: { data: DEEP } }, value),
  },
  {
    name: 'GraphQL finishLesson metadata.extra (variable)',
    field: 'conceptResults[0].metadata.extra',
    send: (value) =>
      graphql(FINISH, { id: String(ids.classroomActivity), input: { conceptResults: [graphqlResult] } }, tokens.owner, value),
  },
  {
    name: 'GraphQL createActivity data (variable)',
    field: 'data',
    send: (value) => graphql(CREATE, { input: { name: 'Deep', data: DEEP } }, tokens.staff, value),
  },
  {
    name: 'GraphQL updateActivity data (variable)',
    field: 'data',
    send: (value) => graphql(UPDATE, { id: uids.lesson, input: { data: DEEP } }, tokens.staff, value),
  },
];

/** JSON text as a GraphQL literal (keys are GraphQL names here). */
const literal = (text: string) => text.replace(/"([_A-Za-z]\w*)":/g, '$1:');

const expectRefused = (answer: Awaited<ReturnType<Face['send']>>, face: Face) => {
  expect(answer.status, answer.text).toBeLessThan(500);
  if (face.name.startsWith('REST')) {
    expect(answer.status, answer.text).toBe(422);
    expect(answer.fields).toEqual([face.field]);
  } else {
    expect(answer.code, answer.text).toBe('BAD_USER_INPUT');
  }
};

describe('a JSON value deeper than 32 levels is refused, naming its field, and nothing changes', () => {
  it.each(faces)('$name: 5,000 levels (a 30 KB body)', async (face) => {
    const before = await digest(gateway);
    const answer = await face.send(deepObject(5_000));
    expectRefused(answer, face);
    if (face.name.startsWith('REST')) expect(JSON.parse(answer.text).meta.errors[face.field][0]).toMatch(/32 levels/);
    expect(await digest(gateway)).toBe(before);
  });

  it.each(faces)('$name: 33 levels refused, 32 accepted', async (face) => {
    expectRefused(await face.send(deepObject(33)), face);
    const accepted = await face.send(deepObject(32));
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.code, accepted.text).toBeUndefined();
  });

  it('GraphQL literals: deeper than 32 levels is BAD_USER_INPUT, 32 levels are stored', async () => {
    const query = (value: string) => `mutation { updateActivity(id: "${uids.lesson}", input: { data: ${literal(value)} }) { data } }`;
    // The document's token limit (2,000) bounds a literal's depth first; within it, the depth limit holds.
    const tooDeep = await gateway.graphql(query(deepObject(40)), {}, tokens.staff);
    expect(tooDeep.errors?.[0]?.extensions?.code, JSON.stringify(tooDeep)).toBe('BAD_USER_INPUT');
    const stored = await gateway.graphql(query(deepObject(32, 'mixed')), {}, tokens.staff);
    expect(stored.errors, JSON.stringify(stored)).toBeUndefined();
    expect(stored.data.updateActivity.data).toEqual(JSON.parse(deepObject(32, 'mixed')));
  });

  it('a variable inside a literal counts from where it sits', async () => {
    const answer = await gateway.graphql(
      `mutation ($deep: JSONObject) { updateActivity(id: "${uids.lesson}", input: { data: { a: { b: $deep } } }) { data } }`,
      { deep: JSON.parse(nestedText(31)) },
      tokens.staff,
    );
    expect(answer.errors?.[0]?.extensions?.code, JSON.stringify(answer).slice(0, 300)).toBe('BAD_USER_INPUT');
  });

  it('property: any deep value, of any shape, in any JSON input, is a 4xx and the gateway keeps answering', async () => {
    const before = await digest(gateway);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...faces),
        fc.integer({ min: 33, max: 8_000 }),
        fc.constantFrom<Shape>('object', 'array', 'mixed'),
        fc.integer({ min: 0, max: 200 }),
        async (face, levels, shape, width) => {
          // Wide beside deep: `width` siblings at the top, then the deep branch.
          expectRefused(await face.send(deepObject(levels, shape, width)), face);
        },
      ),
      { seed: SEED, numRuns: 60 },
    );
    expect(await digest(gateway)).toBe(before);
    expect((await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`)).status).toBe(200);
  });

  it('property: wide values within the body limit are stored as sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 50_000 }), fc.boolean(), async (width, asArray) => {
        const data = asArray
          ? { list: Array.from({ length: width }, (_, index) => index) }
          : Object.fromEntries(Array.from({ length: width }, (_, index) => [`k${index}`, 'v']));
        const answer = await gateway.rest('PUT', `/api/v1/activities/${uids.lesson}`, {
          token: tokens.staff,
          body: { activity: { data } },
        });
        expect(answer.status, answer.text.slice(0, 300)).toBe(200);
        expect(answer.body.activity.data).toEqual(data);
      }),
      { seed: SEED, numRuns: 8 },
    );
  });
});
