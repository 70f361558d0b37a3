import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { errorCodes as codes } from '../../kit/graphql.ts';

// The GraphQL face, whatever the module (docs/contract.md, GraphQL and Errors): what a client sees when
// something goes wrong: codes on every error, masked internals, parse and validation errors, and the
// production hardening (no introspection, no field suggestions).

const GENERIC = 'Internal server error';

let gateway: Gateway;
let production: Gateway;
beforeAll(async () => {
  [gateway, production] = await Promise.all([startGateway(), startGateway({ NODE_ENV: 'production' })]);
});
afterAll(() => Promise.all([gateway.close(), production.close()]));
beforeEach(() => Promise.all([gateway.reset(), production.reset()]));

/** Makes the stored activity break the schema's promise that `data` is a JSON object: a resolver then fails unexpectedly. */
async function corruptActivityData(target: Gateway) {
  await target.database.prisma.$executeRawUnsafe(`UPDATE activities SET data = '["not", "an", "object"]'::jsonb WHERE id = ${ids.lesson}`);
}

describe('every error carries extensions.code', () => {
  it('for errors raised by resolvers', async () => {
    const answers = await Promise.all([
      gateway.graphql('mutation { unpinAndLock(id: "999") { id } }', {}, tokens.owner),
      gateway.graphql(`mutation { unpinAndLock(id: "${ids.classroomActivity}") { id } }`),
      gateway.graphql(`mutation { unpinAndLock(id: "${ids.classroomActivity}") { id } }`, {}, tokens.otherTeacher),
      gateway.graphql('{ activities(first: 500) { totalCount } }'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map(codes)).toEqual([['NOT_FOUND'], ['UNAUTHENTICATED'], ['FORBIDDEN'], ['BAD_USER_INPUT']]);
    for (const answer of answers) {
      expect(answer.errors![0]!.extensions).not.toHaveProperty('stacktrace');
      expect(typeof answer.errors![0]!.message).toBe('string');
    }
  });

  it('GRAPHQL_PARSE_FAILED for a syntax error', async () => {
    for (const query of ['{ activity(id: "1") { uid ', 'query {', 'mutation { unpinAndLock(id: ) { id } }']) {
      const answer = await gateway.graphql(query);
      expect(answer.status, query).toBe(400);
      expect(codes(answer), query).toEqual(['GRAPHQL_PARSE_FAILED']);
      expect(answer.data, query).toBeUndefined();
    }
  });

  it('GRAPHQL_PARSE_FAILED, not a server error, for a document over the token limit', async () => {
    const query = `{ ${Array.from({ length: 2100 }, () => '__typename').join(' ')} }`;
    const answer = await gateway.graphql(query);
    expect(answer.status).toBe(400);
    expect(codes(answer)).toEqual(['GRAPHQL_PARSE_FAILED']);
    expect(answer.errors![0]!.message).toMatch(/2000 tokens/);
    // Well under the limit is fine.
    const small = await gateway.graphql(`{ ${Array.from({ length: 100 }, () => '__typename').join(' ')} }`);
    expect(small.errors).toBeUndefined();
  });

  it('GRAPHQL_VALIDATION_FAILED for a query nested too deep', async () => {
    const deep = `{ activity(id: "10") { ${'followUpActivity { '.repeat(12)}uid${' }'.repeat(12)} } }`;
    const answer = await gateway.graphql(deep);
    expect(answer.status).toBe(400);
    expect(codes(answer)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });

  it('GRAPHQL_VALIDATION_FAILED for a field or argument the schema does not have', async () => {
    const answer = await gateway.graphql('{ activty(id: "10") { uid } }');
    expect(answer.status).toBe(400);
    expect(codes(answer)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    // Outside production, suggestions help the developer.
    expect(answer.errors![0]!.message).toContain('Did you mean');
    const missingArgument = await gateway.graphql('{ activity { uid } }');
    expect(codes(missingArgument)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });

  it('BAD_USER_INPUT for a variable of the wrong type', async () => {
    const answer = await gateway.graphql('query($first: Int) { activities(first: $first) { totalCount } }', { first: 'many' });
    expect(answer.status).toBe(400);
    expect(codes(answer)).toEqual(['BAD_USER_INPUT']);
  });
});

describe('an unexpected error', () => {
  it('reaches the client as INTERNAL_SERVER_ERROR with a generic message, and spares the rest of the answer', async () => {
    await corruptActivityData(gateway);
    const answer = await gateway.graphql(
      `{ activity(id: "${uids.lesson}") { uid data } other: activity(id: "${uids.followUp}") { uid data } }`,
    );
    expect(answer.status).toBe(200);
    expect(answer.errors).toHaveLength(1);
    const [error] = answer.errors!;
    expect(error).toEqual({ message: GENERIC, path: ['activity', 'data'], extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(JSON.stringify(answer)).not.toMatch(/JSONObject|object|stack|prisma|\.ts/i);
    expect(answer.data).toEqual({ activity: null, other: { uid: uids.followUp, data: {} } });
  });

  it('is masked the same way in production, with no stack trace', async () => {
    await corruptActivityData(production);
    const answer = await production.graphql(`{ activity(id: "${uids.lesson}") { uid data } }`);
    expect(answer.errors).toEqual([{ message: GENERIC, path: ['activity', 'data'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
  });
});

describe('when the database connection is gone', () => {
  let lost: Gateway;
  beforeAll(async () => {
    lost = await startGateway();
    await lost.reset();
    await lost.database.close();
  });
  // The database is already closed: closing it again is a no-op (tests/kit/gateway.ts).
  afterAll(() => lost.close());

  it('a query answers a masked error that says nothing about internals', async () => {
    const answer = await lost.graphql(`{ activity(id: "${uids.lesson}") { uid } }`);
    console.log('closed database answer:', JSON.stringify(answer));
    expect(answer.data).toEqual({ activity: null });
    expect(answer.errors).toHaveLength(1);
    expect(['UNAVAILABLE', 'INTERNAL_SERVER_ERROR']).toContain(answer.errors![0]!.extensions!.code);
    expect(Object.keys(answer.errors![0]!.extensions!)).toEqual(['code']);
    expect(JSON.stringify(answer)).not.toMatch(/prisma|pglite|pool|closed|stack|\.ts/i);
  });
});

describe('in production', () => {
  const INTROSPECTION = '{ __schema { queryType { name } types { name } } }';

  it('rejects introspection', async () => {
    for (const query of [
      INTROSPECTION,
      '{ __type(name: "Activity") { fields { name } } }',
      'query IntrospectionQuery { __schema { directives { name } } }',
    ]) {
      const answer = await production.graphql(query);
      expect(answer.status, query).toBe(400);
      expect(codes(answer), query).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(answer.data, query).toBeUndefined();
      expect(JSON.stringify(answer), query).not.toContain('ActivityConnection');
    }
    // While development allows it.
    const development = await gateway.graphql(INTROSPECTION);
    expect(development.errors).toBeUndefined();
    expect(development.data.__schema.queryType.name).toBe('Query');
  });

  it('still answers __typename', async () => {
    const answer = await production.graphql(`{ __typename activity(id: "${uids.lesson}") { __typename uid } }`);
    expect(answer.data).toEqual({ __typename: 'Query', activity: { __typename: 'Activity', uid: uids.lesson } });
  });

  it('gives no "Did you mean" suggestions', async () => {
    const queries = [
      '{ activty(id: "10") { uid } }',
      `{ activity(id: "10") { naem } }`,
      '{ activities(frist: 2) { totalCount } }',
      'mutation { createActivity(input: { nam: "x" }) { id } }',
      'query($first: Int) { activities(first: $first) { totalCount } }',
    ];
    for (const query of queries) {
      const answer = await production.graphql(query, { first: 'many' }, tokens.staff);
      expect(answer.errors?.length, query).toBeGreaterThan(0);
      for (const error of answer.errors!) {
        expect(error.message, query).not.toMatch(/did you mean/i);
        expect(error.extensions, query).not.toHaveProperty('stacktrace');
      }
    }
  });

  it('keeps client errors as they are', async () => {
    const answer = await production.graphql(`mutation { unpinAndLock(id: "${ids.classroomActivity}") { id } }`, {}, tokens.otherTeacher);
    expect(codes(answer)).toEqual(['FORBIDDEN']);
    expect(answer.errors![0]!.message).toBe('Only a teacher of this classroom may do this');
  });
});

describe('in production with PLAYGROUND=1', () => {
  let playground: Gateway;
  beforeAll(async () => {
    playground = await startGateway({ NODE_ENV: 'production', PLAYGROUND: '1' });
  });
  afterAll(() => playground.close());

  it('allows introspection', async () => {
    const answer = await playground.graphql('{ __schema { queryType { name } } }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });
});
