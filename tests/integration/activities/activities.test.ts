import { describe, expect, it } from 'vitest';
import { fixture, ids, tokens, uids } from '../../kit/fixture.ts';
import { documentText, gatewayForTests } from '../../kit/gateway.ts';
import { errorCodes as codes } from '../../kit/graphql.ts';
import { graphql } from '../../kit/gql/index.ts';

// The activities module through GraphQL (docs/contract.md, GraphQL): Query.activity, Query.activities,
// Query.activityFlags, the staff mutations on activities, and what a page of activities costs. The REST
// routes over the same resolvers are checked for their translation in tests/integration/rest/activities*.test.ts.

const gateway = gatewayForTests();

// Every field of an activity, as ACTIVITY, CREATE and UPDATE answer it.
graphql(`fragment ActivityFields on Activity {
  id uid name description flags flag data supportingInfo followUpActivityId
  followUpActivity { id uid name }
  classification { id key name }
  createdAt updatedAt
}`);

const ACTIVITY = graphql(`query Activity($id: ID!) { activity(id: $id) { ...ActivityFields } }`);

const PAGE = graphql(`query ActivitiesPage($first: Int, $after: String, $flag: String) {
  activities(first: $first, after: $after, flag: $flag) {
    edges { cursor node { id uid } }
    pageInfo { hasNextPage endCursor }
    totalCount
  }
}`);

const CREATE = graphql(`mutation CreateActivity($input: CreateActivityInput!) { createActivity(input: $input) { ...ActivityFields } }`);
const UPDATE = graphql(
  `mutation UpdateActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { ...ActivityFields } }`,
);
const DELETE = graphql(`mutation DeleteActivity($id: ID!) { deleteActivity(id: $id) { id } }`);

const isoDate = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** The fixture with `count` activities (ids 1..count) instead of its own, each following up the next, over three classifications. */
function catalogueOf(count: number) {
  return {
    ...fixture(),
    classifications: [
      { id: 6, key: 'lessons', name: 'Quill Lessons' },
      { id: 7, key: 'connect', name: 'Quill Connect' },
      { id: 8, key: 'grammar', name: 'Quill Grammar' },
    ],
    activities: Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      uid: `activity-${String(i + 1).padStart(4, '0')}`,
      name: `Activity ${i + 1}`,
      flags: ['production'],
      followUpActivityId: ((i + 1) % count) + 1,
      classificationId: 6 + (i % 3),
    })),
    classroomActivities: [],
    activitySessions: [],
  };
}

describe('Query.activity', () => {
  it('finds an activity by uid and answers every field', async () => {
    const answer = await gateway.graphql(ACTIVITY, { id: uids.lesson });
    expect(answer.errors).toBeUndefined();
    const activity = answer.data!.activity!;
    expect(activity).toMatchObject({
      id: String(ids.lesson),
      uid: uids.lesson,
      name: 'Parallel Structure',
      description: 'Build sentences whose parts match.',
      flags: ['production', 'beta'],
      flag: 'production',
      data: { questions: ['q1'] },
      supportingInfo: 'https://example.org/plan.pdf',
      followUpActivityId: String(ids.followUp),
      followUpActivity: { id: String(ids.followUp), uid: uids.followUp, name: 'Parallel Structure Practice' },
      classification: { id: '6', key: 'lessons', name: 'Quill Lessons' },
    });
    expect(activity.createdAt).toMatch(isoDate);
    expect(activity.updatedAt).toMatch(isoDate);
    expect(Math.abs(Date.parse(activity.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  it('finds an activity by numeric id', async () => {
    const answer = await gateway.graphql(ACTIVITY, { id: String(ids.followUp) });
    expect(answer.data!.activity).toMatchObject({
      id: String(ids.followUp),
      uid: uids.followUp,
      flag: 'production',
      followUpActivity: null,
    });
  });

  it('answers null for flag, followUpActivity and classification when the activity has none', async () => {
    const answer = await gateway.graphql(ACTIVITY, { id: uids.lonelyActivity });
    expect(answer.data!.activity).toMatchObject({
      flags: [],
      flag: null,
      followUpActivity: null,
      followUpActivityId: null,
      classification: null,
      supportingInfo: null,
      description: '',
      data: {},
    });
  });

  it('is null for an unknown uid or id', async () => {
    for (const id of ['no-such-uid', '999', '0', '-1', '99999999999999999999']) {
      const answer = await gateway.graphql(ACTIVITY, { id });
      expect(answer.errors, id).toBeUndefined();
      expect(answer.data, id).toEqual({ activity: null });
    }
  });

  it('tries the uid before the numeric id', async () => {
    // An activity whose uid looks like another activity's id.
    const created = await gateway.graphql(CREATE, { input: { uid: String(ids.followUp), name: 'Numeric uid' } }, tokens.staff);
    expect(created.errors).toBeUndefined();
    const byUid = await gateway.graphql(ACTIVITY, { id: String(ids.followUp) });
    expect(byUid.data!.activity).toMatchObject({ uid: String(ids.followUp), name: 'Numeric uid' });
    const byId = await gateway.graphql(ACTIVITY, { id: created.data!.createActivity.id });
    expect(byId.data!.activity!.name).toBe('Numeric uid');
    // The activity whose id it is stays reachable by its own uid.
    expect((await gateway.graphql(ACTIVITY, { id: uids.followUp })).data!.activity).toMatchObject({
      id: String(ids.followUp),
      uid: uids.followUp,
    });
  });

  it('answers compact JSON over HTTP', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/graphql',
      payload: { query: documentText(ACTIVITY), variables: { id: uids.lesson } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body.startsWith('{"data":{"activity":{')).toBe(true);
    expect(response.body).not.toContain('\n');
    expect(JSON.parse(response.body).data.activity.uid).toBe(uids.lesson);
  });

  it('is open to anonymous callers and signed-in users alike, but not to a wrong token', async () => {
    expect((await gateway.graphql(ACTIVITY, { id: uids.lesson }, tokens.student)).data!.activity!.uid).toBe(uids.lesson);
    const wrong = await gateway.graphql(ACTIVITY, { id: uids.lesson }, 'not-a-real-token-0123456789');
    expect(codes(wrong)).toEqual(['UNAUTHENTICATED']);
    expect(wrong.data).toEqual({ activity: null });
  });
});

describe('Query.activities', () => {
  it('pages through activities in id order', async () => {
    const first = await gateway.graphql(PAGE, { first: 2 });
    expect(first.errors).toBeUndefined();
    const page1 = first.data!.activities;
    expect(page1.edges.map((edge) => edge.node.id)).toEqual([String(ids.lesson), String(ids.followUp)]);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    expect(page1.pageInfo.endCursor).toBe(page1.edges[1]!.cursor);
    expect(page1.totalCount).toBe(3);

    const second = await gateway.graphql(PAGE, { first: 2, after: page1.pageInfo.endCursor });
    const page2 = second.data!.activities;
    expect(page2.edges.map((edge) => edge.node.uid)).toEqual([uids.lonelyActivity]);
    expect(page2.pageInfo).toEqual({ hasNextPage: false, endCursor: page2.edges[0]!.cursor });
    expect(page2.totalCount).toBe(3);

    const third = await gateway.graphql(PAGE, { first: 2, after: page2.pageInfo.endCursor });
    expect(third.data!.activities).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 3 });
  });

  it('returns 20 by default and up to 100', async () => {
    await gateway.reset(catalogueOf(120));
    const byDefault = await gateway.graphql(PAGE, {});
    expect(byDefault.data!.activities.edges).toHaveLength(20);
    expect(byDefault.data!.activities.totalCount).toBe(120);
    const most = await gateway.graphql(PAGE, { first: 100 });
    expect(most.errors).toBeUndefined();
    expect(most.data!.activities.edges).toHaveLength(100);
    expect(most.data!.activities.pageInfo.hasNextPage).toBe(true);
    const rest = await gateway.graphql(PAGE, { first: 100, after: most.data!.activities.pageInfo.endCursor });
    expect(rest.data!.activities.edges.map((edge) => edge.node.id)).toEqual(Array.from({ length: 20 }, (_, i) => String(101 + i)));
    expect(rest.data!.activities.pageInfo.hasNextPage).toBe(false);
  });

  it('keeps a cursor valid after the activity it names is deleted', async () => {
    const page1 = (await gateway.graphql(PAGE, { first: 1 })).data!.activities;
    await gateway.graphql(DELETE, { id: String(ids.lesson) }, tokens.staff);
    const page2 = await gateway.graphql(PAGE, { first: 5, after: page1.pageInfo.endCursor });
    expect(page2.data!.activities.edges.map((edge) => edge.node.id)).toEqual([String(ids.followUp), String(ids.lonelyActivity)]);
    expect(page2.data!.activities.totalCount).toBe(2);
  });

  it('keeps activities having the flag among their flags, not only as the first one', async () => {
    const beta = await gateway.graphql(PAGE, { flag: 'beta' });
    expect(beta.data!.activities.edges.map((edge) => edge.node.uid)).toEqual([uids.lesson]);
    expect(beta.data!.activities.totalCount).toBe(1);
    const production = await gateway.graphql(PAGE, { flag: 'production', first: 1 });
    expect(production.data!.activities.edges.map((edge) => edge.node.uid)).toEqual([uids.lesson]);
    expect(production.data!.activities.pageInfo.hasNextPage).toBe(true);
    expect(production.data!.activities.totalCount).toBe(2);
    const next = await gateway.graphql(PAGE, { flag: 'production', first: 1, after: production.data!.activities.pageInfo.endCursor });
    expect(next.data!.activities.edges.map((edge) => edge.node.uid)).toEqual([uids.followUp]);
    expect(next.data!.activities.pageInfo.hasNextPage).toBe(false);
    const none = await gateway.graphql(PAGE, { flag: 'archived' });
    expect(none.data!.activities).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 0 });
  });

  it('rejects a cursor it did not make with BAD_USER_INPUT naming `after`', async () => {
    for (const after of [
      'not-a-cursor',
      '',
      Buffer.from('activity:abc').toString('base64url'),
      Buffer.from('user:10').toString('base64url'),
    ]) {
      const answer = await gateway.graphql(PAGE, { after });
      expect(codes(answer), after).toEqual(['BAD_USER_INPUT']);
      expect(Object.keys(answer.errors![0]!.extensions!.fields), after).toEqual(['after']);
      expect(answer.data, after).toBeNull();
    }
  });

  it('rejects first above 100 or below 0 with BAD_USER_INPUT naming `first`', async () => {
    for (const first of [101, 1000, -1]) {
      const answer = await gateway.graphql(PAGE, { first });
      expect(codes(answer), String(first)).toEqual(['BAD_USER_INPUT']);
      expect(answer.errors![0]!.extensions!.fields.first[0], String(first)).toContain(String(first));
    }
  });

  it('answers first: 0 with no edges', async () => {
    const answer = await gateway.graphql(PAGE, { first: 0 });
    expect(answer.data!.activities).toMatchObject({ edges: [], totalCount: 3, pageInfo: { hasNextPage: true, endCursor: null } });
  });
});

describe('Query.activityFlags', () => {
  const ACTIVITY_FLAGS = graphql(`query ActivityFlags { activityFlags { uid flag } }`);

  it("lists every activity's uid with its first flag, or null", async () => {
    const answer = await gateway.graphql(ACTIVITY_FLAGS);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.activityFlags).toEqual([
      { uid: uids.lesson, flag: 'production' },
      { uid: uids.followUp, flag: 'production' },
      { uid: uids.lonelyActivity, flag: null },
    ]);
  });

  it('is empty when there are no activities', async () => {
    await gateway.reset({});
    expect((await gateway.graphql(ACTIVITY_FLAGS)).data).toEqual({ activityFlags: [] });
  });
});

describe('Mutation.createActivity', () => {
  it('creates an activity with defaults: a generated uid and the beta flag', async () => {
    const answer = await gateway.graphql(CREATE, { input: { name: 'Fresh Lesson' } }, tokens.staff);
    expect(answer.errors).toBeUndefined();
    const created = answer.data!.createActivity;
    expect(created).toMatchObject({
      name: 'Fresh Lesson',
      description: '',
      flags: ['beta'],
      flag: 'beta',
      data: {},
      supportingInfo: null,
      followUpActivity: null,
      followUpActivityId: null,
      classification: null,
    });
    expect(created.uid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(created.createdAt).toMatch(isoDate);
    expect(Number(created.id)).toBeGreaterThan(ids.lonelyActivity);
    // It is there for everyone to read.
    expect((await gateway.graphql(ACTIVITY, { id: created.uid })).data!.activity).toEqual(created);
  });

  it('gives the beta flag to an activity created with an empty flag list', async () => {
    const answer = await gateway.graphql(CREATE, { input: { name: 'No flags', flags: [] } }, tokens.staff);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.createActivity).toMatchObject({ flags: ['beta'], flag: 'beta' });
  });

  it('generates a different uid each time', async () => {
    const a = await gateway.graphql(CREATE, { input: { name: 'A' } }, tokens.staff);
    const b = await gateway.graphql(CREATE, { input: { name: 'B' } }, tokens.staff);
    expect(a.data!.createActivity.uid).not.toBe(b.data!.createActivity.uid);
  });

  it('keeps every field it is given', async () => {
    const kept = {
      uid: 'my-own-uid',
      name: 'Complete',
      description: 'All fields.',
      flags: ['alpha', 'private'],
      data: { questions: [{ key: 'q1' }], nested: { deep: true } },
    };
    const links = { supportingInfo: 'https://example.org/guide.pdf', followUpActivityId: String(ids.lesson) };
    const answer = await gateway.graphql(CREATE, { input: { ...kept, ...links, classificationId: '6' } }, tokens.staff);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.createActivity).toMatchObject({
      ...kept,
      ...links,
      flag: 'alpha',
      followUpActivity: { uid: uids.lesson },
      classification: { id: '6', key: 'lessons' },
    });
  });

  it('rejects a duplicate uid with BAD_USER_INPUT naming uid, and creates nothing', async () => {
    const before = await gateway.snapshot();
    const answer = await gateway.graphql(CREATE, { input: { uid: uids.lesson, name: 'Copy' } }, tokens.staff);
    expect(codes(answer)).toEqual(['BAD_USER_INPUT']);
    expect(answer.errors![0]!.extensions!.fields).toEqual({ uid: [expect.stringContaining(uids.lesson)] });
    expect(answer.data).toBeNull();
    expect(await gateway.snapshot()).toBe(before);
  });

  it('names every invalid field', async () => {
    const input = { name: '  ', supportingInfo: 'not a url', followUpActivityId: '999', classificationId: 'abc' };
    const answer = await gateway.graphql(CREATE, { input }, tokens.staff);
    expect(codes(answer)).toEqual(['BAD_USER_INPUT']);
    expect(Object.keys(answer.errors![0]!.extensions!.fields).sort()).toEqual(['classificationId', 'name', 'supportingInfo']);
    const unknownReference = await gateway.graphql(
      CREATE,
      { input: { name: 'X', followUpActivityId: '999', classificationId: '77' } },
      tokens.staff,
    );
    expect(codes(unknownReference)).toEqual(['BAD_USER_INPUT']);
    expect(unknownReference.errors![0]!.extensions!.fields).toEqual({
      followUpActivityId: [expect.stringContaining('999')],
      classificationId: [expect.stringContaining('77')],
    });
  });

  it('is for staff only', async () => {
    const before = await gateway.snapshot();
    const input = { name: 'Not allowed' };
    expect(codes(await gateway.graphql(CREATE, { input }))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gateway.graphql(CREATE, { input }, 'wrong-token-0123456789abcdef'))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gateway.graphql(CREATE, { input }, tokens.owner))).toEqual(['FORBIDDEN']);
    expect(codes(await gateway.graphql(CREATE, { input }, tokens.student))).toEqual(['FORBIDDEN']);
    expect(await gateway.snapshot()).toBe(before);
  });

  it('checks credentials before the input', async () => {
    expect(codes(await gateway.graphql(CREATE, { input: { name: '' } }))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gateway.graphql(CREATE, { input: { name: '' } }, tokens.owner))).toEqual(['FORBIDDEN']);
  });
});

describe('Mutation.updateActivity', () => {
  it('changes the fields given and keeps the others, by uid or by id', async () => {
    const before = (await gateway.graphql(ACTIVITY, { id: uids.lesson })).data!.activity!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const answer = await gateway.graphql(
      UPDATE,
      { id: uids.lesson, input: { name: 'Renamed', flags: ['archived'], supportingInfo: null } },
      tokens.staff,
    );
    expect(answer.errors).toBeUndefined();
    const after = answer.data!.updateActivity;
    expect(after).toEqual({ ...before, name: 'Renamed', flags: ['archived'], flag: 'archived', updatedAt: after.updatedAt });
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect((await gateway.graphql(ACTIVITY, { id: uids.lesson })).data!.activity).toEqual(after);

    const byId = await gateway.graphql(
      UPDATE,
      { id: String(ids.lesson), input: { description: 'New words.', followUpActivityId: String(ids.lonelyActivity) } },
      tokens.staff,
    );
    expect(byId.data!.updateActivity).toMatchObject({
      name: 'Renamed',
      description: 'New words.',
      followUpActivity: { uid: uids.lonelyActivity },
    });
  });

  it('changes the uid: the activity is then found by the new one, and the old one finds nothing', async () => {
    const answer = await gateway.graphql(UPDATE, { id: uids.lonelyActivity, input: { uid: 'renamed-uid' } }, tokens.staff);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.updateActivity).toMatchObject({ id: String(ids.lonelyActivity), uid: 'renamed-uid' });
    expect((await gateway.graphql(ACTIVITY, { id: 'renamed-uid' })).data!.activity!.id).toBe(String(ids.lonelyActivity));
    expect((await gateway.graphql(ACTIVITY, { id: uids.lonelyActivity })).data).toEqual({ activity: null });
  });

  it('rejects a uid taken by another activity with BAD_USER_INPUT naming uid', async () => {
    const before = await gateway.snapshot();
    const answer = await gateway.graphql(UPDATE, { id: uids.lesson, input: { uid: uids.followUp } }, tokens.staff);
    expect(codes(answer)).toEqual(['BAD_USER_INPUT']);
    expect(Object.keys(answer.errors![0]!.extensions!.fields)).toEqual(['uid']);
    expect(await gateway.snapshot()).toBe(before);
  });

  it('keeps its own uid without complaint', async () => {
    const answer = await gateway.graphql(UPDATE, { id: uids.lesson, input: { uid: uids.lesson, name: 'Same uid' } }, tokens.staff);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.updateActivity).toMatchObject({ uid: uids.lesson, name: 'Same uid' });
  });

  it('refuses to make an activity its own follow-up', async () => {
    const answer = await gateway.graphql(UPDATE, { id: uids.lesson, input: { followUpActivityId: String(ids.lesson) } }, tokens.staff);
    expect(codes(answer)).toEqual(['BAD_USER_INPUT']);
    expect(Object.keys(answer.errors![0]!.extensions!.fields)).toEqual(['followUpActivityId']);
  });

  it('answers NOT_FOUND for an unknown activity, before checking credentials', async () => {
    expect(codes(await gateway.graphql(UPDATE, { id: '999', input: { name: 'X' } }, tokens.staff))).toEqual(['NOT_FOUND']);
    expect(codes(await gateway.graphql(UPDATE, { id: 'nope', input: { name: 'X' } }))).toEqual(['NOT_FOUND']);
  });

  it('is for staff only', async () => {
    const before = await gateway.snapshot();
    const variables = { id: uids.lesson, input: { name: 'Not allowed' } };
    expect(codes(await gateway.graphql(UPDATE, variables))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gateway.graphql(UPDATE, variables, 'wrong-token-0123456789abcdef'))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gateway.graphql(UPDATE, variables, tokens.owner))).toEqual(['FORBIDDEN']);
    expect(await gateway.snapshot()).toBe(before);
  });
});

describe('Mutation.deleteActivity', () => {
  it('deletes an activity; activities that followed up to it lose their follow-up', async () => {
    const answer = await gateway.graphql(DELETE, { id: uids.followUp }, tokens.staff);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ deleteActivity: { id: String(ids.followUp) } });
    expect((await gateway.graphql(ACTIVITY, { id: uids.followUp })).data).toEqual({ activity: null });
    expect((await gateway.graphql(ACTIVITY, { id: uids.lesson })).data!.activity).toMatchObject({
      followUpActivity: null,
      followUpActivityId: null,
    });
    expect((await gateway.graphql(PAGE, {})).data!.activities.totalCount).toBe(2);
  });

  it('answers NOT_FOUND for an unknown activity, and for one already deleted', async () => {
    expect(codes(await gateway.graphql(DELETE, { id: '999' }, tokens.staff))).toEqual(['NOT_FOUND']);
    await gateway.graphql(DELETE, { id: String(ids.lonelyActivity) }, tokens.staff);
    expect(codes(await gateway.graphql(DELETE, { id: String(ids.lonelyActivity) }, tokens.staff))).toEqual(['NOT_FOUND']);
    expect(codes(await gateway.graphql(DELETE, { id: '999' }))).toEqual(['NOT_FOUND']);
  });

  it('is for staff only', async () => {
    const before = await gateway.snapshot();
    expect(codes(await gateway.graphql(DELETE, { id: uids.lesson }))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gateway.graphql(DELETE, { id: uids.lesson }, 'wrong-token-0123456789abcdef'))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gateway.graphql(DELETE, { id: uids.lesson }, tokens.coteacher))).toEqual(['FORBIDDEN']);
    expect(await gateway.snapshot()).toBe(before);
  });
});

describe('the public schema', () => {
  // The REST shim runs the public mutations (src/rest/schema.ts): nothing in the public schema is there for its sake.
  it('offers no mutation that exists only for the /api/v1 routes', async () => {
    const answer = await gateway.graphql(graphql(`query SchemaNames { __schema { mutationType { fields { name } } types { name } } }`));
    const mutations = answer.data!.__schema.mutationType!.fields!.map((field) => field.name);
    expect(mutations.filter((name) => /^(rest|legacy)/i.test(name))).toEqual([]);
    expect(answer.data!.__schema.types.map((type) => type.name)).not.toContain('RestBody');
  });

  it('refuses the shim-only mutations by name at /graphql', async () => {
    const answer = await gateway.graphql(`mutation { restCreateActivity(body: {}) { id } }`, {}, tokens.staff);
    expect(codes(answer)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});

describe('statements', () => {
  it('activities(first: 50) with follow-ups and classifications costs as many statements as first: 5', async () => {
    const QUERY = graphql(
      `query ActivityLinks($first: Int) { activities(first: $first) { edges { node { followUpActivity { name } classification { name } } } } }`,
    );
    const cost = async (first: number) => {
      const before = gateway.statements();
      const answer = await gateway.graphql(QUERY, { first });
      expect(answer.errors).toBeUndefined();
      return { edges: answer.data!.activities.edges, statements: gateway.statements() - before };
    };
    await gateway.reset(catalogueOf(60));
    const small = await cost(5);
    expect(small.edges).toHaveLength(5);
    const large = await cost(50);
    expect(large.edges).toHaveLength(50);
    expect(large.edges[49]!.node).toEqual({ followUpActivity: { name: 'Activity 51' }, classification: { name: 'Quill Connect' } });

    console.log(`activities query: ${small.statements} statements with first: 5, ${large.statements} with first: 50`);
    expect(large.statements).toBe(small.statements);
  });
});
