import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import { startGateway, type Gateway, type GraphQLAnswer } from '../../kit/gateway.ts';
import { errorCodes } from '../../kit/graphql.ts';
import { scrape, total } from '../../kit/metrics.ts';
import { freePort } from '../../kit/ports.ts';

// The gateway as an Apollo Federation 2 subgraph (docs/federation.md): with SUBGRAPH=1, `_service` and
// `_entities`, each entity read as its root field reads it; without it, nothing of federation exists.

const ENTITIES = `query($representations: [_Any!]!) {
  _entities(representations: $representations) {
    __typename
    ... on Activity { id uid name }
    ... on ClassroomActivity { id locked classroom { name } }
    ... on User { id name }
  }
}`;

type Representation = Record<string, string>;
const activity = (key: 'id' | 'uid', value: string): Representation => ({ __typename: 'Activity', [key]: value });
const lesson = (id: number | string): Representation => ({ __typename: 'ClassroomActivity', id: String(id) });
const user = (id: number | string): Representation => ({ __typename: 'User', id: String(id) });

let subgraph: Gateway;
let plain: Gateway;
let metricsUrl: string;
/** What the subgraph gateway logged. */
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
beforeAll(async () => {
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  [subgraph, plain] = await Promise.all([
    startGateway({ SUBGRAPH: '1', METRICS_PORT: String(metricsPort), LOG_LEVEL: 'info' }, { logStream }),
    startGateway(),
  ]);
});
afterAll(async () => {
  await subgraph?.close();
  await plain?.close();
});

/** The answer to `_entities` for these representations, as `token`'s caller; each item with its error's code, if any. */
async function entities(representations: Representation[], token?: string) {
  const answer = await subgraph.graphql(ENTITIES, { representations }, token);
  expect(answer.status).toBe(200);
  const codeAt = (index: number) => answer.errors?.find((error) => error.path?.[1] === (index as never))?.extensions?.code;
  return (answer.data._entities as unknown[]).map((item, index) => ({ item, code: codeAt(index) }));
}

describe('SUBGRAPH unset', () => {
  it('has no _service, no _entities, no _Entity: the public schema as without federation', async () => {
    for (const query of ['{ _service { sdl } }', `query { _entities(representations: []) { __typename } }`])
      expect(errorCodes(await plain.graphql(query))).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    const types = await plain.graphql('{ __type(name: "_Entity") { name } }');
    expect(types.data).toEqual({ __type: null });
  });
});

describe('SUBGRAPH=1', () => {
  it('answers _service with the SDL: federation 2.3 linked, and the entity keys', async () => {
    const { data } = await subgraph.graphql('{ _service { sdl } }');
    const sdl = data._service.sdl as string;
    expect(sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.4", import: ["@key"])');
    expect(sdl).toMatch(/type Activity @key\(fields: "id"\) @key\(fields: "uid"\)/);
    expect(sdl).toMatch(/type ClassroomActivity @key\(fields: "id"\)/);
    expect(sdl).toMatch(/type User @key\(fields: "id"\)/);
    // The root fields are the public schema's: the same reads answer the same.
    const read = `{ activity(id: "${uids.lesson}") { uid name } }`;
    expect(await subgraph.graphql(read)).toEqual(await plain.graphql(read));
  });

  it('activities: anyone may read them, by id or uid; unknown is null; a wrong token is UNAUTHENTICATED', async () => {
    const representations = [
      activity('id', String(ids.lesson)),
      activity('uid', uids.followUp),
      activity('id', '999999'),
      activity('uid', 'nope'),
    ];
    for (const token of [undefined, tokens.student, tokens.otherTeacher]) {
      const answer = await entities(representations, token);
      expect(answer).toEqual([
        { item: { __typename: 'Activity', id: String(ids.lesson), uid: uids.lesson, name: expect.any(String) }, code: undefined },
        { item: { __typename: 'Activity', id: String(ids.followUp), uid: uids.followUp, name: expect.any(String) }, code: undefined },
        { item: null, code: undefined },
        { item: null, code: undefined },
      ]);
    }
    expect((await entities([activity('id', String(ids.lesson))], 'wrong-token')).map(({ code }) => code)).toEqual(['UNAUTHENTICATED']);
  });

  it('classroom activities: their teachers’ only; others get null with FORBIDDEN, anonymous UNAUTHENTICATED; unknown and hidden are null', async () => {
    const representations = [
      lesson(ids.classroomActivity),
      lesson(ids.otherClassroomActivity),
      lesson(ids.hiddenClassroomActivity),
      lesson(424242),
    ];
    const mine = {
      item: { __typename: 'ClassroomActivity', id: String(ids.classroomActivity), locked: false, classroom: { name: 'Period 1' } },
      code: undefined,
    };
    const nothing = { item: null, code: undefined };
    for (const teacher of [tokens.owner, tokens.coteacher])
      expect(await entities(representations, teacher)).toEqual([mine, { item: null, code: 'FORBIDDEN' }, nothing, nothing]);
    expect(await entities(representations, tokens.otherTeacher)).toEqual([
      { item: null, code: 'FORBIDDEN' },
      { item: expect.objectContaining({ id: String(ids.otherClassroomActivity) }), code: undefined },
      nothing,
      nothing,
    ]);
    expect(await entities(representations, tokens.student)).toEqual([
      { item: null, code: 'FORBIDDEN' },
      { item: null, code: 'FORBIDDEN' },
      nothing,
      nothing,
    ]);
    expect(await entities(representations)).toEqual([
      { item: null, code: 'UNAUTHENTICATED' },
      { item: null, code: 'UNAUTHENTICATED' },
      nothing,
      nothing,
    ]);
  });

  it('users: each caller their own only; anyone else null with FORBIDDEN, anonymous UNAUTHENTICATED', async () => {
    const representations = [user(ids.owner), user(ids.students[0])];
    expect(await entities(representations, tokens.owner)).toEqual([
      { item: { __typename: 'User', id: String(ids.owner), name: 'Ada Park' }, code: undefined },
      { item: null, code: 'FORBIDDEN' },
    ]);
    expect((await entities(representations, tokens.student)).map(({ item, code }) => [item === null, code])).toEqual([
      [true, 'FORBIDDEN'],
      [false, undefined],
    ]);
    expect((await entities(representations, tokens.otherTeacher)).map(({ code }) => code)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    expect((await entities(representations)).map(({ code }) => code)).toEqual(['UNAUTHENTICATED', 'UNAUTHENTICATED']);
  });

  it('a malformed representation is BAD_USER_INPUT for that item alone, and nothing of it is logged', async () => {
    const MARKER = 'Nope_c4f1e2';
    const malformed: unknown[] = [
      { __typename: MARKER, id: '1' },
      { id: `${MARKER}-1` },
      5,
      `${MARKER}-text`,
      [MARKER],
      { __typename: 'Activity' },
      { __typename: 'Activity', id: { marker: MARKER } },
      { __typename: 'ClassroomActivity', uid: MARKER },
      { __typename: 'Query', id: '1' },
      { __typename: '_Service', id: '1' },
      { __typename: 42, id: '1' },
    ];
    logLines.length = 0;
    const representations = [activity('id', String(ids.lesson)), ...malformed, lesson(ids.classroomActivity)];
    const answer = await subgraph.graphql(ENTITIES, { representations }, tokens.owner);
    expect(answer.status).toBe(200);
    const items = answer.data._entities as unknown[];
    expect(items).toHaveLength(representations.length);
    expect(items[0]).toMatchObject({ __typename: 'Activity', id: String(ids.lesson) });
    expect(items.at(-1)).toMatchObject({ __typename: 'ClassroomActivity', id: String(ids.classroomActivity) });
    expect(items.slice(1, -1)).toEqual(malformed.map(() => null));
    expect(answer.errors?.map((error) => [error.path, error.extensions?.code])).toEqual(
      malformed.map((_, index) => [['_entities', index + 1], 'BAD_USER_INPUT']),
    );
    // The request's own line is written when the answer is sent: wait for it, then nothing quotes the input.
    await expect.poll(() => logLines.some((line) => line.includes('"msg":"request"'))).toBe(true);
    expect(logLines.filter((line) => line.includes(MARKER) || /"level":50/.test(line))).toEqual([]);
  });

  it('costs as many statements for 50 representations of every type as for 2', async () => {
    const mixed = (n: number): Representation[] =>
      Array.from(
        { length: n },
        (_, i) =>
          [
            activity('id', String([ids.lesson, ids.followUp, ids.lonelyActivity][i % 3])),
            activity('uid', [uids.lesson, uids.followUp, uids.lonelyActivity][i % 3]!),
            lesson(i % 2 === 0 ? ids.classroomActivity : ids.hiddenClassroomActivity),
            user(ids.owner),
          ][i % 4]!,
      );
    const statementsFor = async (n: number) => {
      await entities(mixed(n), tokens.owner);
      const before = subgraph.statements();
      const answer = await entities(mixed(n), tokens.owner);
      expect(answer.filter(({ item }) => item !== null).length).toBeGreaterThan(n / 2);
      return subgraph.statements() - before;
    };
    const two = await statementsFor(4);
    const fifty = await statementsFor(50);
    expect(fifty).toBe(two);
    // Activities by id and by uid, classroom activities with the viewer's membership, their classrooms.
    expect(fifty).toBeLessThanOrEqual(4);
  });
});

describe('SUBGRAPH=1, as a router calls it', () => {
  // As Hive Gateway names the operations it sends a subgraph: the client's operation name and the subgraph's.
  const ROUTER_ENTITIES = `query Lesson__lessons__1($representations: [_Any!]!) {
    _entities(representations: $representations) { ... on ClassroomActivity { locked } }
  }`;

  it('trusts no identity header: only Authorization (or the platform’s cookies) says who calls', async () => {
    const response = await subgraph.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: {
        'content-type': 'application/json',
        'x-user-id': String(ids.owner),
        'x-forwarded-user': String(ids.owner),
        'x-auth-request-user': String(ids.owner),
        'x-remote-user': String(ids.owner),
      },
      payload: JSON.stringify({ query: ROUTER_ENTITIES, variables: { representations: [lesson(ids.classroomActivity)] } }),
    });
    const answer = JSON.parse(response.body) as GraphQLAnswer;
    expect(answer.data._entities).toEqual([null]);
    expect(errorCodes(answer)).toEqual(['UNAUTHENTICATED']);
  });

  it('counts entity requests in the metrics like any other operation: by name, type and outcome, errors by code', async () => {
    const labels = { api: 'graphql', operation_name: 'Lesson__lessons__1', operation_type: 'query' };
    const before = await scrape(metricsUrl);
    const representations = [lesson(ids.classroomActivity)];
    expect((await subgraph.graphql(ROUTER_ENTITIES, { representations }, tokens.owner)).errors).toBeUndefined();
    expect(errorCodes(await subgraph.graphql(ROUTER_ENTITIES, { representations }, tokens.otherTeacher))).toEqual(['FORBIDDEN']);
    const after = await scrape(metricsUrl);
    const moved = (name: string, extra: Record<string, string>) => total(after, name, extra) - total(before, name, extra);
    expect(moved('graphql_operations_total', { ...labels, outcome: 'success' })).toBe(1);
    expect(moved('graphql_operations_total', { ...labels, outcome: 'error' })).toBe(1);
    expect(moved('graphql_errors_total', { api: 'graphql', code: 'FORBIDDEN' })).toBe(1);
  });
});

describe('in production', () => {
  it('answers _service only with SUBGRAPH=1, introspection staying off', async () => {
    const production = await startGateway({ NODE_ENV: 'production', SUBGRAPH: '1' });
    const productionPlain = await startGateway({ NODE_ENV: 'production' });
    try {
      expect((await production.graphql('{ _service { sdl } }')).data._service.sdl).toContain('@key');
      expect(errorCodes(await production.graphql('{ __schema { types { name } } }'))).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(errorCodes(await productionPlain.graphql('{ _service { sdl } }'))).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    } finally {
      await production.close();
      await productionPlain.close();
    }
  });
});
