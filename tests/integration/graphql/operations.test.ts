// How an operation is chosen and run (src/graphql/executor.ts): operations are compiled once per document
// and operation name, and the answers must be graphql-js's — asked once or again, whichever operation of a
// document is named, whatever the variables leave out, and with variables inside literals. And what is
// not run here: a subscription, which the WebSocket serves.

import { describe, expect, it } from 'vitest';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import { gatewayForTests } from '../../kit/gateway.ts';

const gateway = gatewayForTests();

async function ask(body: { query: string; variables?: Record<string, unknown>; operationName?: string }, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await gateway.app.inject({ method: 'POST', url: '/graphql', headers, payload: JSON.stringify(body) });
  return { status: response.statusCode, ...JSON.parse(response.body) } as { status: number; data?: any; errors?: any[] };
}

const TWO_OPERATIONS = `
  query ByUid($uid: ID!) { activity(id: $uid) { id uid } }
  query Page { activities(first: 2) { edges { node { id } } } }
`;

describe('operations of one document', () => {
  it('answers the operation named, each time it is asked', async () => {
    for (let round = 0; round < 3; round += 1) {
      const byUid = await ask({ query: TWO_OPERATIONS, operationName: 'ByUid', variables: { uid: uids.lesson } });
      expect(byUid).toEqual({ status: 200, data: { activity: { id: String(ids.lesson), uid: uids.lesson } } });
      const page = await ask({ query: TWO_OPERATIONS, operationName: 'Page' });
      expect(page.status).toBe(200);
      expect(page.data.activities.edges).toHaveLength(2);
    }
  });

  it('refuses a document of two operations that names none, or names one it does not have', async () => {
    const unnamed = await ask({ query: TWO_OPERATIONS, variables: { uid: uids.lesson } });
    expect(unnamed.status).toBe(400);
    expect(unnamed.errors).toEqual([
      {
        message: 'Must provide operation name if query contains multiple operations.',
        extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
      },
    ]);
    const unknown = await ask({ query: TWO_OPERATIONS, operationName: 'Nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.errors).toEqual([{ message: 'Unknown operation named "Nope".', extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } }]);
  });
});

describe('variables', () => {
  it('takes a variable’s default when the request leaves it out', async () => {
    const query = 'query Page($first: Int = 1) { activities(first: $first) { edges { node { id } } } }';
    expect((await ask({ query })).data.activities.edges).toHaveLength(1);
    expect((await ask({ query, variables: { first: 3 } })).data.activities.edges).toHaveLength(3);
  });

  it('skips and includes fields by variables', async () => {
    const query = `query ($skip: Boolean!, $include: Boolean!) {
      activity(id: "${uids.lesson}") { uid @skip(if: $skip) name @include(if: $include) }
    }`;
    expect((await ask({ query, variables: { skip: true, include: false } })).data).toEqual({ activity: {} });
    const both = (await ask({ query, variables: { skip: false, include: true } })).data.activity;
    expect(Object.keys(both)).toEqual(['uid', 'name']);
  });

  it('skips and includes fragments by variables, and a field selected both inside and outside one', async () => {
    const query = `query ($include: Boolean!, $skip: Boolean!) {
      activity(id: "${uids.lesson}") {
        uid
        ...Named @include(if: $include)
        ... on Activity @skip(if: $skip) { description uid }
      }
    }
    fragment Named on Activity { name uid }`;
    for (const [include, skip] of [
      [false, true],
      [true, false],
      [true, true],
      [false, false],
    ] as const) {
      const { data } = await ask({ query, variables: { include, skip } });
      const expected = ['uid', ...(include ? ['name'] : []), ...(skip ? [] : ['description'])];
      expect(Object.keys(data.activity).sort(), JSON.stringify({ include, skip })).toEqual(expected.sort());
      expect(data.activity.uid).toBe(uids.lesson);
    }
  });

  it('reads a variable inside a list or object literal', async () => {
    const created = await ask(
      {
        query: `mutation ($flag: String!, $deep: JSONObject) {
          createActivity(input: { name: "Literals", flags: ["beta", $flag], data: { nested: { value: $deep } } }) { flags data }
        }`,
        variables: { flag: 'alpha', deep: { answer: 42 } },
      },
      tokens.staff,
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createActivity).toEqual({ flags: ['beta', 'alpha'], data: { nested: { value: { answer: 42 } } } });
  });
});

describe('subscriptions', () => {
  it('refuses a subscription sent over HTTP as the client’s error, naming the WebSocket that serves it', async () => {
    const answer = await ask(
      { query: `subscription { lessonEvents(classroomActivityId: "${ids.classroomActivity}") { kind } }` },
      tokens.owner,
    );
    expect(answer.status).toBe(400);
    expect(answer.errors).toEqual([{ message: expect.stringContaining('WebSocket'), extensions: { code: 'BAD_REQUEST' } }]);
    expect(answer.data).toBeUndefined();
  });
});
