import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_CHANGES_CHANNEL } from '../../../src/modules/activities/catalogue-version.ts';
import { gatewayForTests, startGateway, type Gateway, type RestAnswer } from '../../kit/gateway.ts';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import { graphql } from '../../kit/gql/index.ts';
import { basicAuth, classroomActivityPath, notFoundBody, unauthorizedBody } from '../../kit/rest.ts';

// HTTP caching of public reads (docs/operations.md, HTTP caching): a GraphQL query of activities by GET with
// no credentials, and the REST activity reads, are `public, max-age` with a tag, and 304 when the request
// names it; everything else is `private, no-store`. The tag moves with every change to the catalogue.

const gateway = gatewayForTests();

const PUBLIC = 'public, max-age=60';
const PRIVATE = 'private, no-store';
const TAG = /^W\/"[A-Za-z0-9_-]{27}"$/;

const ACTIVITY_READ = `query PublicActivity($id: ID!) {
  activity(id: $id) { __typename id uid name flags flag data supportingInfo createdAt updatedAt
    classification { id key name } followUpActivity { uid name classification { key } } }
}`;
const PAGE_READ = `query PublicPage { activities(first: 2) { totalCount edges { cursor node { ...Listed } } pageInfo { hasNextPage endCursor } } }
fragment Listed on Activity { uid ... on Activity { name } }`;

/** A GraphQL query by GET, as standard clients send it (its text and variables in the query string). */
const graphqlGet = (query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  gateway.rest('GET', `/graphql?${new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) })}`, {
    headers,
  });

const activityRead = (headers: Record<string, string> = {}) => graphqlGet(ACTIVITY_READ, { id: String(ids.lesson) }, headers);

/** The public REST reads, each for the fixture's lesson (and uids_and_flags). */
const restReads = [
  `/api/v1/activities/${uids.lesson}`,
  `/api/v1/activities/${ids.lesson}/follow_up_activity_name_and_supporting_info`,
  `/api/v1/activities/${uids.lesson}/supporting_info`,
  '/api/v1/activities/uids_and_flags',
];

const expectPublic = (answer: RestAnswer) => {
  expect(answer.status).toBe(200);
  expect(answer.headers['cache-control']).toBe(PUBLIC);
  expect(answer.headers.etag).toMatch(TAG);
  expect(String(answer.headers.vary)).toMatch(/\bAuthorization\b/);
  return answer.headers.etag as string;
};
const expectPrivate = (answer: RestAnswer) => {
  expect(answer.headers['cache-control']).toBe(PRIVATE);
  expect(answer.headers.etag).toBeUndefined();
};
const expectNotModified = (answer: RestAnswer, tag: string) => {
  expect(answer.status).toBe(304);
  expect(answer.text).toBe('');
  expect(answer.headers.etag).toBe(tag);
  expect(answer.headers['cache-control']).toBe(PUBLIC);
  expect(answer.headers['content-type']).toBeUndefined();
};

describe('the headers of each kind of read', () => {
  it('a GraphQL query of activities, their classification and follow-up, by GET with no credentials: public with a tag', async () => {
    const answer = await activityRead();
    expectPublic(answer);
    expect(String(answer.headers.vary)).toMatch(/\bAccept\b/);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.activity).toMatchObject({ uid: uids.lesson, followUpActivity: { uid: uids.followUp } });
    // Pages, fragments (inline ones too) and activityFlags are the catalogue as well.
    expectPublic(await graphqlGet(PAGE_READ));
    expectPublic(await graphqlGet('{ activityFlags { uid flag __typename } }'));
    // The same request, the same tag; another activity, another.
    expect((await activityRead()).headers.etag).toBe(answer.headers.etag);
    const other = await graphqlGet(ACTIVITY_READ, { id: String(ids.followUp) });
    expect(expectPublic(other)).not.toBe(answer.headers.etag);
  });

  it.each(restReads)('REST GET %s with no credentials: public with a tag', async (path) => {
    const answer = await gateway.rest('GET', path);
    expectPublic(answer);
    expect((await gateway.rest('GET', path)).headers.etag).toBe(answer.headers.etag);
  });

  it('an unknown activity: GraphQL answers null publicly; REST answers 404, not kept', async () => {
    const unknown = await graphqlGet(ACTIVITY_READ, { id: 'no-such-activity' });
    expectPublic(unknown);
    expect(unknown.body).toEqual({ data: { activity: null } });
    const notFound = await gateway.rest('GET', '/api/v1/activities/no-such-activity');
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual(notFoundBody);
    expectPrivate(notFound);
  });

  it('a read with credentials is never public: a valid token, Basic, or a wrong token (401 even when it names the tag)', async () => {
    const tag = expectPublic(await activityRead());
    const restTag = expectPublic(await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`));

    const signedIn = await activityRead({ authorization: `Bearer ${tokens.owner}` });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.activity.uid).toBe(uids.lesson);
    expectPrivate(signedIn);
    const withTag = await activityRead({ authorization: `Bearer ${tokens.owner}`, 'if-none-match': tag });
    expect(withTag.status).toBe(200);
    expectPrivate(withTag);
    expectPrivate(
      await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`, { token: tokens.staff, headers: { 'if-none-match': restTag } }),
    );
    expectPrivate(await gateway.rest('GET', '/api/v1/activities/uids_and_flags', { headers: basicAuth(tokens.owner) }));

    const wrongGraphql = await activityRead({ authorization: 'Bearer not-a-token', 'if-none-match': tag });
    expect(wrongGraphql.body.errors.map((error: any) => error.extensions.code)).toEqual(['UNAUTHENTICATED']);
    expectPrivate(wrongGraphql);
    const wrongRest = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`, {
      token: 'not-a-token',
      headers: { 'if-none-match': restTag },
    });
    expect(wrongRest.status).toBe(401);
    expect(wrongRest.body).toEqual(unauthorizedBody);
    expectPrivate(wrongRest);
  });

  it('a classroom field (or the viewer) inside an otherwise public document makes it private', async () => {
    // Both answer without an error for an anonymous caller: only the document's fields make it private.
    const withClassroom = await graphqlGet(`{ activity(id: "${ids.lesson}") { uid } classroomActivity(id: "999999") { id locked } }`);
    expect(withClassroom.body).toEqual({ data: { activity: { uid: uids.lesson }, classroomActivity: null } });
    expectPrivate(withClassroom);
    const withViewer = await graphqlGet(`query WithViewer { activity(id: "${ids.lesson}") { uid } viewer { id } }`);
    expect(withViewer.body).toEqual({ data: { activity: { uid: uids.lesson }, viewer: null } });
    expectPrivate(withViewer);
    // A fragment is judged as its fields.
    const throughFragment = await graphqlGet(
      `query Spread { ...Both } fragment Both on Query { activity(id: "${ids.lesson}") { uid } viewer { id } }`,
    );
    expect(throughFragment.status).toBe(200);
    expectPrivate(throughFragment);
  });

  it('a mutation, a POST query, and a GET with errors are private, no-store', async () => {
    const post = await gateway.rest('POST', '/graphql', { body: { query: ACTIVITY_READ, variables: { id: String(ids.lesson) } } });
    expect(post.body.data.activity.uid).toBe(uids.lesson);
    expectPrivate(post);
    const mutation = await gateway.rest('POST', '/graphql', {
      token: tokens.staff,
      body: { query: `mutation { updateActivity(id: "${ids.lonelyActivity}", input: { name: "Renamed" }) { name } }` },
    });
    expect(mutation.body.data.updateActivity.name).toBe('Renamed');
    expectPrivate(mutation);
    const mutationByGet = await graphqlGet(`mutation { deleteActivity(id: "${ids.lonelyActivity}") { id } }`);
    expect(mutationByGet.status).toBe(405);
    expectPrivate(mutationByGet);
    // A public document whose answer is an error (BAD_USER_INPUT from the operation) is not kept.
    const refused = await graphqlGet('{ activities(first: 1000) { totalCount } }');
    expect(refused.body.errors.map((error: any) => error.extensions.code)).toEqual(['BAD_USER_INPUT']);
    expectPrivate(refused);
    expectPrivate(await gateway.rest('DELETE', `/api/v1/activities/${uids.lonelyActivity}`, { token: tokens.staff }));
  });

  it('REST classroom routes are private, no-store, answered or refused', async () => {
    const names = await gateway.rest('GET', classroomActivityPath('student_names'), { token: tokens.owner });
    expect(names.status).toBe(200);
    expectPrivate(names);
    const anonymous = await gateway.rest('GET', classroomActivityPath('teacher_and_classroom_name'));
    expect(anonymous.status).toBe(401);
    expectPrivate(anonymous);
  });

  it('HEAD of a REST activity read: the same headers without a body, and 304 with the tag', async () => {
    const tag = expectPublic(await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`));
    const head = await gateway.rest('HEAD', `/api/v1/activities/${uids.lesson}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.etag).toBe(tag);
    expect(head.headers['cache-control']).toBe(PUBLIC);
    expectNotModified(await gateway.rest('HEAD', `/api/v1/activities/${uids.lesson}`, { headers: { 'if-none-match': tag } }), tag);
    // /graphql serves GET and POST only: a HEAD is refused as it was (CSRF's 400), and never public.
    const graphqlHead = await gateway.rest('HEAD', `/graphql?${new URLSearchParams({ query: '{ activityFlags { uid } }' })}`);
    expect(graphqlHead.status).toBe(400);
    expectPrivate(graphqlHead);
  });
});

describe('conditional requests', () => {
  it('GraphQL by GET: the tag is 304 without a body, and without running the operation; a stale tag is the full answer', async () => {
    const first = await activityRead();
    const tag = expectPublic(first);
    const statements = gateway.statements();
    const again = await activityRead({ 'if-none-match': tag });
    expectNotModified(again, tag);
    expect(String(again.headers.vary)).toMatch(/\bAccept\b.*\bAuthorization\b/);
    expect(gateway.statements()).toBe(statements);

    const stale = await activityRead({ 'if-none-match': 'W/"an-older-tag"' });
    expect(stale.status).toBe(200);
    expect(expectPublic(stale)).toBe(tag);
    expect(stale.body).toEqual(first.body);
  });

  it.each(restReads)('REST GET %s: the tag is 304 without a body or a statement; a stale tag is the full answer', async (path) => {
    const first = await gateway.rest('GET', path);
    const tag = expectPublic(first);
    const statements = gateway.statements();
    expectNotModified(await gateway.rest('GET', path, { headers: { 'if-none-match': tag } }), tag);
    expect(gateway.statements()).toBe(statements);
    const stale = await gateway.rest('GET', path, { headers: { 'if-none-match': '"stale"' } });
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual(first.body);
  });

  it('If-None-Match as HTTP has it: a list of tags, the tag without W/ (weak comparison), and * (any answer there is)', async () => {
    const path = '/api/v1/activities/uids_and_flags';
    const tag = expectPublic(await gateway.rest('GET', path));
    const strong = tag.slice(2);
    for (const names of [`"other", ${tag}`, `W/"a",W/"b" , ${strong}`, strong, '*'])
      expectNotModified(await gateway.rest('GET', path, { headers: { 'if-none-match': names } }), tag);
    // A request's no-cache asks caches to check with the origin (fetch() adds it to a conditional request): a 304 is that check.
    expectNotModified(await gateway.rest('GET', path, { headers: { 'if-none-match': tag, 'cache-control': 'no-cache' } }), tag);
    expect((await gateway.rest('GET', path, { headers: { 'if-none-match': 'W/"a", "b"' } })).status).toBe(200);
    // `*` matches an answer that exists: an unknown activity is still 404; GraphQL's null is an answer.
    expect((await gateway.rest('GET', '/api/v1/activities/no-such-activity', { headers: { 'if-none-match': '*' } })).status).toBe(404);
    const unknown = await graphqlGet(ACTIVITY_READ, { id: 'no-such-activity' });
    expectNotModified(
      await graphqlGet(ACTIVITY_READ, { id: 'no-such-activity' }, { 'if-none-match': '*' }),
      unknown.headers.etag as string,
    );
  });
});

const LOCK = graphql(`mutation CacheLock($id: ID!) { unpinAndLock(id: $id) { locked } }`);
const CREATE = graphql(`mutation CacheCreateActivity($input: CreateActivityInput!) { createActivity(input: $input) { id } }`);
const UPDATE = graphql(
  `mutation CacheUpdateActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { id } }`,
);
const DELETE = graphql(`mutation CacheDeleteActivity($id: ID!) { deleteActivity(id: $id) { id } }`);

describe('the tag moves with every change to the catalogue', () => {
  /** The tags of the public reads, taken once this gateway heard every change committed so far. */
  const tags = async () => {
    await gateway.heardAllSoFar();
    const answers = [
      await activityRead(),
      await graphqlGet(PAGE_READ),
      ...(await Promise.all(restReads.map((path) => gateway.rest('GET', path)))),
    ];
    return answers.map(expectPublic);
  };
  /** After a write: every tag moved, and a request naming an old one gets the full answer. */
  const expectMoved = async (before: string[]) => {
    const after = await tags();
    after.forEach((tag, i) => expect(tag).not.toBe(before[i]));
    const stale = await gateway.rest('GET', '/api/v1/activities/uids_and_flags', { headers: { 'if-none-match': before.at(-1)! } });
    expect(stale.status).toBe(200);
    return stale;
  };

  it('a create, an update and a delete through GraphQL (staff)', async () => {
    let before = await tags();
    const created = await gateway.graphql(CREATE, { input: { name: 'Cached', uid: 'cached-activity-0001' } }, tokens.staff);
    expect(created.errors).toBeUndefined();
    expect((await expectMoved(before)).body['cached-activity-0001']).toEqual({ flag: 'beta' });

    before = await tags();
    expect(
      (await gateway.graphql(UPDATE, { id: 'cached-activity-0001', input: { flags: ['production'] } }, tokens.staff)).errors,
    ).toBeUndefined();
    expect((await expectMoved(before)).body['cached-activity-0001']).toEqual({ flag: 'production' });

    before = await tags();
    expect((await gateway.graphql(DELETE, { id: 'cached-activity-0001' }, tokens.staff)).errors).toBeUndefined();
    expect((await expectMoved(before)).body['cached-activity-0001']).toBeUndefined();
  });

  it('a create, an update and a delete through REST (staff)', async () => {
    let before = await tags();
    const body = { activity: { name: 'Cached by REST', uid: 'cached-activity-0002' } };
    expect((await gateway.rest('POST', '/api/v1/activities', { token: tokens.staff, body })).status).toBe(200);
    await expectMoved(before);

    before = await tags();
    const update = { activity: { flags: ['alpha'] } };
    expect((await gateway.rest('PUT', '/api/v1/activities/cached-activity-0002', { token: tokens.staff, body: update })).status).toBe(200);
    expect((await expectMoved(before)).body['cached-activity-0002']).toEqual({ flag: 'alpha' });

    before = await tags();
    expect((await gateway.rest('DELETE', '/api/v1/activities/cached-activity-0002', { token: tokens.staff })).status).toBe(200);
    await expectMoved(before);
  });

  it('after a mutation on this instance, its next public read takes the version from the database, the one after from memory', async () => {
    const read = () => gateway.rest('GET', `/api/v1/activities/${uids.lesson}`);
    await tags();
    const costOf = async (run: () => Promise<RestAnswer>) => {
      const before = gateway.statements();
      expectPublic(await run());
      return gateway.statements() - before;
    };
    const fromMemory = await costOf(read);
    // Changes that move no activity: no notification of the catalogue will come to settle it.
    expect((await gateway.rest('PUT', classroomActivityPath('unpin_and_lock_activity'), { token: tokens.owner })).status).toBe(200);
    expect(await costOf(read)).toBe(fromMemory + 1);
    expect(await costOf(read)).toBe(fromMemory);
    expect((await gateway.graphql(LOCK, { id: String(ids.classroomActivity) }, tokens.owner)).errors).toBeUndefined();
    expect(await costOf(read)).toBe(fromMemory + 1);
    expect(await costOf(read)).toBe(fromMemory);
  });

  it('the version moves once per transaction, announced at its commit; a transaction rolled back moves nothing', async () => {
    const heard: string[] = [];
    const stop = await gateway.database.listen(CATALOGUE_CHANGES_CHANNEL, (payload) => heard.push(payload));
    try {
      const version = async () =>
        (await gateway.database.read<{ version: string }>('SELECT version::text AS version FROM public_catalogue_version', []))[0]!.version;
      const before = await version();
      await gateway.database.prisma.$transaction(async (tx) => {
        await tx.activity.update({ where: { id: ids.lesson }, data: { name: 'One' } });
        await tx.activity.update({ where: { id: ids.followUp }, data: { name: 'Two' } });
        await tx.activityClassification.updateMany({ data: { name: 'Three' } });
      });
      await gateway.heardAllSoFar();
      const after = await version();
      expect(BigInt(after)).toBeGreaterThan(BigInt(before));
      expect(heard).toEqual([after]);

      await expect(
        gateway.database.prisma.$transaction(async (tx) => {
          await tx.activity.update({ where: { id: ids.lesson }, data: { name: 'Rolled back' } });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      await gateway.heardAllSoFar();
      expect(await version()).toBe(after);
      expect(heard).toEqual([after]);
    } finally {
      await stop();
    }
  });

  it("an operator's own SQL on a classification moves it too; a refused write does not", async () => {
    let before = await tags();
    await gateway.database.prisma.$executeRaw`UPDATE activity_classifications SET name = 'Renamed lessons' WHERE key = 'lessons'`;
    await expectMoved(before);
    expect((await activityRead()).body.data.activity.classification.name).toBe('Renamed lessons');

    before = await tags();
    const refused = await gateway.graphql(UPDATE, { id: String(ids.lesson), input: { name: '' } }, tokens.staff);
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const refusedByRest = await gateway.rest('PUT', `/api/v1/activities/${ids.lesson}`, {
      token: tokens.owner,
      body: { activity: { name: 'x' } },
    });
    expect(refusedByRest.status).toBe(403);
    expect(await tags()).toEqual(before);
  });
});

describe('persisted documents by GET', () => {
  const FLAGS = 'query Flags { activityFlags { uid flag } }';
  const hash = createHash('sha256').update(FLAGS).digest('hex');
  const byHash = (extra: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    gateway.rest(
      'GET',
      `/graphql?${new URLSearchParams({ ...extra, extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }) })}`,
      {
        headers,
      },
    );

  it('an APQ hash is public with a tag once its text is registered, and 304 without running', async () => {
    expectPrivate(await byHash());
    expectPublic(await byHash({ query: FLAGS }));
    const tag = expectPublic(await byHash());
    const statements = gateway.statements();
    expectNotModified(await byHash({}, { 'if-none-match': tag }), tag);
    expect(gateway.statements()).toBe(statements);
  });

  it("a trusted document's id: public with a tag, and 304 without running", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lgw-cache-')), 'persisted-documents.json');
    writeFileSync(file, JSON.stringify({ [`sha256:${hash}`]: FLAGS }));
    const trusted = await startGateway({ TRUSTED_DOCUMENTS: file });
    try {
      const get = (headers: Record<string, string> = {}) =>
        trusted.rest('GET', `/graphql?${new URLSearchParams({ documentId: `sha256:${hash}` })}`, { headers });
      const first = await get();
      expect(first.body.data.activityFlags).toContainEqual({ uid: uids.lesson, flag: expect.any(String) });
      const tag = expectPublic(first);
      const statements = trusted.statements();
      expectNotModified(await get({ 'if-none-match': tag }), tag);
      expect(trusted.statements()).toBe(statements);
    } finally {
      await trusted.close();
    }
  });
});

describe('CORS on a 304', () => {
  const ORIGIN = 'https://lessons.example.org';
  let withCors: Gateway;
  beforeAll(async () => {
    withCors = await startGateway({ CORS_ORIGINS: ORIGIN });
  });
  afterAll(() => withCors?.close());

  it('a 304 to the lessons client carries its CORS headers, and varies on Origin as well', async () => {
    const path = `/api/v1/activities/${uids.lesson}`;
    const first = await withCors.rest('GET', path, { headers: { origin: ORIGIN } });
    const tag = first.headers.etag as string;
    expect(tag).toMatch(TAG);
    const again = await withCors.rest('GET', path, { headers: { origin: ORIGIN, 'if-none-match': tag } });
    expect(again.status).toBe(304);
    expect(again.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(again.headers['access-control-allow-credentials']).toBe('true');
    expect(String(again.headers.vary)).toMatch(/\bOrigin\b.*\bAuthorization\b/);
  });
});

describe('PUBLIC_CACHE_MAX_AGE', () => {
  let off: Gateway;
  let short: Gateway;
  beforeAll(async () => {
    [off, short] = await Promise.all([startGateway({ PUBLIC_CACHE_MAX_AGE: '0' }), startGateway({ PUBLIC_CACHE_MAX_AGE: '5 minutes' })]);
  });
  afterAll(async () => {
    await off?.close();
    await short?.close();
  });

  it('0 turns public caching off: every answer private, no-store, without a tag, and If-None-Match is ignored', async () => {
    for (const path of restReads) {
      const answer = await off.rest('GET', path, { headers: { 'if-none-match': '*' } });
      expect(answer.status).toBe(200);
      expectPrivate(answer);
    }
    const graphqlAnswer = await off.rest('GET', `/graphql?${new URLSearchParams({ query: '{ activityFlags { uid } }' })}`);
    expect(graphqlAnswer.status).toBe(200);
    expectPrivate(graphqlAnswer);
    // Apollo's own Cache-Control for an APQ hash it does not know gives way too.
    const unknownHash = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } });
    const notFound = await off.rest('GET', `/graphql?${new URLSearchParams({ extensions: unknownHash })}`);
    expect(notFound.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expectPrivate(notFound);
  });

  it('is the max-age public answers carry, in seconds', async () => {
    const answer = await short.rest('GET', '/api/v1/activities/uids_and_flags');
    expect(answer.headers['cache-control']).toBe('public, max-age=300');
  });
});
