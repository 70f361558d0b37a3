import type { Client as StreamClient } from 'graphql-sse';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ids, tokens } from '../../kit/fixture.ts';
import { finishLesson } from '../../kit/finish-lesson.ts';
import { graphql } from '../../kit/gql/index.ts';
import { followStream, rawStream, refusal, startListeningGateway, type Follower, type ListeningGateway } from '../../kit/live.ts';
import { ISO_8601 } from '../../kit/rest.ts';

// Live lessons over Server-Sent Events (docs/contract.md, Live lessons): graphql-sse's client, one stream
// per subscription at /graphql/stream, hears what a socket hears, in order; who may not follow gets the
// socket's refusal; a caller refused before the stream opens gets an HTTP status and GraphQL errors.

const LAUNCH = graphql(`mutation LaunchOverHttp($id: ID!) { launchLesson(id: $id) { id } }`);
const UNPIN_AND_LOCK = graphql(`mutation LockOverHttp($id: ID!) { unpinAndLock(id: $id) { id } }`);

let gateway: ListeningGateway;
const followers: Follower<StreamClient>[] = [];
let started = 0;

beforeAll(async () => {
  gateway = await startListeningGateway();
});
afterAll(() => gateway?.close());
beforeEach(() => gateway.reset());
afterEach(() => {
  for (const follower of followers.splice(0)) follower.client.dispose();
});

/** Follows the lesson on a stream of its own, and waits until the server has started the subscription. */
async function following(token: string | undefined, id: string | number = ids.classroomActivity) {
  const follower = followStream(gateway.streamUrl, id, token);
  followers.push(follower);
  started += 1;
  await gateway.waitForLog('subscription started', started);
  return follower;
}

/** Follows, expecting the resolver's refusal: one `next` with an error of `code`, then `complete`, and no event. */
async function refused(token: string | undefined, id: string | number, code: string) {
  const follower = followStream(gateway.streamUrl, id, token);
  followers.push(follower);
  expect(await follower.ended).toEqual({ complete: true });
  expect(follower.results).toEqual([{ errors: [expect.objectContaining({ extensions: { code } })] }]);
  return follower;
}

/** The first answer over HTTP to a stream asked for with this document. */
async function answerTo(query: string, variables: Record<string, unknown> = {}) {
  const stream = await rawStream(gateway.streamUrl, { query, variables, headers: { authorization: `Bearer ${tokens.owner}` } });
  await stream.ended;
  return { status: stream.status, body: JSON.parse(stream.text()) };
}

describe('lessonEvents over Server-Sent Events', () => {
  it('a teacher and a student hear launch, lock and finish, in order, each on a stream of their own', async () => {
    const teacher = await following(tokens.coteacher);
    const student = await following(tokens.student);

    expect((await gateway.graphql(LAUNCH, { id: String(ids.classroomActivity) }, tokens.owner)).errors).toBeUndefined();
    expect((await gateway.graphql(UNPIN_AND_LOCK, { id: String(ids.classroomActivity) }, tokens.owner)).errors).toBeUndefined();
    const finished = await finishLesson(gateway, { followUp: true, conceptResults: [] });
    expect(finished.errors).toBeUndefined();

    const event = (kind: string, fields: Record<string, unknown>) => ({
      kind,
      classroomActivityId: String(ids.classroomActivity),
      followUpUrl: null,
      at: expect.stringMatching(ISO_8601),
      ...fields,
    });
    const expected = [
      event('LAUNCHED', { locked: false, pinned: true, completed: false }),
      event('LOCKED', { locked: true, pinned: false, completed: false }),
      event('FINISHED', { locked: true, pinned: false, completed: true, followUpUrl: finished.data!.finishLesson.followUpUrl }),
    ];
    expect(await teacher.waitForEvents(3)).toEqual(expected);
    expect(await student.waitForEvents(3)).toEqual(expected);
    // No more than one event per change: nothing else came in between.
    expect(teacher.results).toHaveLength(3);
  });

  it('serves a GET stream as the protocol allows (query and variables in the URL), with the stream’s headers', async () => {
    const stream = await rawStream(gateway.streamUrl, {
      method: 'GET',
      variables: { id: String(ids.classroomActivity) },
      // The event stream's type among others, as some clients ask for it.
      headers: { authorization: `Bearer ${tokens.owner}`, accept: 'text/event-stream, application/json;q=0.5' },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-cache');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    started += 1;
    await gateway.waitForLog('subscription started', started);
    expect((await gateway.graphql(LAUNCH, { id: String(ids.classroomActivity) }, tokens.owner)).errors).toBeUndefined();
    await expect.poll(() => stream.events().map((message) => message.data?.data?.lessonEvents?.kind)).toEqual(['LAUNCHED']);
    stream.close();
  });

  it('refuses followers who may not follow as a socket does: one error, then complete, and no event', async () => {
    const outsiders = await Promise.all([
      refused(undefined, ids.classroomActivity, 'UNAUTHENTICATED'),
      refused(tokens.otherTeacher, ids.classroomActivity, 'FORBIDDEN'),
      refused(tokens.student, 999, 'NOT_FOUND'),
      refused(tokens.owner, ids.hiddenClassroomActivity, 'NOT_FOUND'),
    ]);
    const teacher = await following(tokens.owner);
    expect((await gateway.graphql(LAUNCH, { id: String(ids.classroomActivity) }, tokens.owner)).errors).toBeUndefined();
    await teacher.waitForEvents(1);
    for (const outsider of outsiders) expect(outsider.events()).toEqual([]);
    expect(
      gateway
        .logs()
        .filter((line) => line.msg === 'subscription refused')
        .map((line) => line.code),
    ).toEqual(expect.arrayContaining(['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'NOT_FOUND']));
  });

  it('answers a wrong token with HTTP 401 before the stream opens, UNAUTHENTICATED in GraphQL’s error shape', async () => {
    const follower = followStream(gateway.streamUrl, ids.classroomActivity, 'wrong-token');
    followers.push(follower);
    const { status, body, headers } = await refusal(follower.ended);
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(body).toEqual({ errors: [expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED' } })] });
    expect(follower.results).toEqual([]);
  });

  it('applies the HTTP limits to subscription documents, and serves only subscriptions: HTTP 400', async () => {
    const aliases = Array.from({ length: 20 }, (_, i) => `a${i}: kind`).join(' ');
    const tooMany = await answerTo(`subscription { lessonEvents(classroomActivityId: "${ids.classroomActivity}") { ${aliases} } }`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/alias/i),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });

    const query = await answerTo('{ viewer { id } }');
    expect(query).toEqual({ status: 400, body: { errors: [expect.objectContaining({ extensions: { code: 'BAD_REQUEST' } })] } });
    expect(query.body.errors[0].message).toMatch(/Only subscriptions are served over Server-Sent Events/);
    const mutation = await answerTo(`mutation { unpinAndLock(id: "${ids.classroomActivity}") { id } }`);
    expect(mutation.status).toBe(400);
    // Refused before it ran: the lesson is as it was.
    expect((await gateway.database.prisma.classroomActivity.findUniqueOrThrow({ where: { id: ids.classroomActivity } })).locked).toBe(
      false,
    );
    const parse = await answerTo('subscription {');
    expect(parse.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('serves only distinct event streams there: a request that does not ask for one is 406, a reservation 404', async () => {
    const response = await fetch(gateway.streamUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.owner}` },
      body: JSON.stringify({ query: `subscription { lessonEvents(classroomActivityId: "1") { kind } }` }),
    });
    expect(response.status).toBe(406);
    expect(await response.json()).toEqual({ errors: [expect.objectContaining({ extensions: { code: 'BAD_REQUEST' } })] });
    // graphql-sse's single-connection mode (a stream reserved by PUT, operations added to it) is not served.
    const reserve = await fetch(gateway.streamUrl, { method: 'PUT', headers: { authorization: `Bearer ${tokens.owner}` } });
    expect(reserve.status).toBe(404);
  });
});
