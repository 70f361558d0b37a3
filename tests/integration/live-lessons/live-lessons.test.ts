import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixture, ids, tokens, uids } from '../../kit/fixture.ts';
import { finishLesson } from '../../kit/finish-lesson.ts';
import { graphql } from '../../kit/gql/index.ts';
import { follow, startListeningGateway, type Follower, type ListeningGateway } from '../../kit/live.ts';
import { classroomActivityPath, finishLessonPath, ISO_8601, multipartForm, urlEncodedForm } from '../../kit/rest.ts';

// Live lessons (docs/contract.md, Live lessons): launch, lock and finish reach the lesson's followers over
// graphql-ws, through the database's notifications; nobody else may follow, and nothing is sent for a
// change that did not commit.

const EVE = 14;
const EVE_TOKEN = 'eve-token-0123456789abcdef';
const SECOND_LESSON = 102;

/** The shared fixture, with a token for Eve (only a hidden session in the lesson) and a second lesson in the classroom. */
function liveFixture() {
  const data = fixture();
  return {
    ...data,
    users: data.users.map((user) => (user.id === EVE ? { ...user, token: EVE_TOKEN } : user)),
    classroomActivities: [
      ...data.classroomActivities,
      { id: SECOND_LESSON, classroomId: ids.classroom, activityId: ids.lonelyActivity, pinned: true },
    ],
  };
}

const LAUNCH = graphql(`mutation Launch($id: ID!) { launchLesson(id: $id) { id locked pinned sessions { student { id } state } } }`);
const UNPIN_AND_LOCK = graphql(`mutation Lock($id: ID!) { unpinAndLock(id: $id) { id } }`);
const FOLLOW_UP_URL = /^http:\/\/localhost:3000\/teachers\/classroom_activities\/\d+\/activity_from_classroom_activity$/;
const benResult = {
  activitySessionUid: uids.sessions.ben,
  conceptUid: uids.concepts.parallel,
  questionType: 'lessons-slide',
  metadata: { correct: 1, attemptNumber: 1, questionNumber: 1 },
};

let gateway: ListeningGateway;
const followers: Follower[] = [];
let started = 0;

beforeAll(async () => {
  gateway = await startListeningGateway();
});
afterAll(() => gateway?.close());
beforeEach(() => gateway.reset(liveFixture()));
afterEach(async () => {
  await Promise.all(followers.splice(0).map(async (follower) => follower.client.dispose()));
});

/** Follows the lesson and waits until the server has registered the subscription. */
async function following(token: string | undefined, id: string | number = ids.classroomActivity): Promise<Follower> {
  const follower = follow(gateway.wsUrl, id, token);
  followers.push(follower);
  started += 1;
  await gateway.waitForLog('subscription started', started);
  return follower;
}

/** Follows, expecting a refusal: the subscription ends with one error of `code` and no event. */
async function refused(token: string | undefined, id: string | number, code: string) {
  const follower = follow(gateway.wsUrl, id, token);
  followers.push(follower);
  const end = await follower.ended;
  expect(end).toEqual({ complete: true });
  expect(follower.results).toEqual([{ errors: [expect.objectContaining({ extensions: { code } })] }]);
  return follower;
}

/** Sends `document` about classroom activity `id`, as the owner unless `token` says otherwise. */
async function send<Result>(document: TypedDocumentNode<Result, { id: string | number }>, id: number, token: string = tokens.owner) {
  const answer = await gateway.graphql(document, { id: String(id) }, token);
  return answer;
}

const event = (kind: string, fields: Record<string, unknown>) => ({
  kind,
  classroomActivityId: String(ids.classroomActivity),
  followUpUrl: null,
  at: expect.stringMatching(ISO_8601),
  ...fields,
});

describe('lessonEvents', () => {
  it('a teacher and a student hear launch, lock and finish, in order (GraphQL)', async () => {
    const teacher = await following(tokens.coteacher);
    const student = await following(tokens.student);

    const launched = await send(LAUNCH, ids.classroomActivity);
    expect(launched.errors).toBeUndefined();
    expect((await send(UNPIN_AND_LOCK, ids.classroomActivity)).errors).toBeUndefined();
    const finished = await finishLesson(gateway, { followUp: true, conceptResults: [benResult] });
    expect(finished.errors).toBeUndefined();

    const expected = [
      event('LAUNCHED', { locked: false, pinned: true, completed: false }),
      event('LOCKED', { locked: true, pinned: false, completed: false }),
      event('FINISHED', { locked: true, pinned: false, completed: true, followUpUrl: finished.data!.finishLesson.followUpUrl }),
    ];
    expect(finished.data!.finishLesson.followUpUrl).toMatch(FOLLOW_UP_URL);
    expect(await teacher.waitForEvents(3)).toEqual(expected);
    expect(await student.waitForEvents(3)).toEqual(expected);
  });

  it('the REST routes send the same events, form bodies included; a retried finish sends none', async () => {
    const teacher = await following(tokens.owner);
    const lock = await gateway.rest('PUT', classroomActivityPath('unpin_and_lock_activity'), { token: tokens.owner });
    expect(lock.status).toBe(200);
    const json = JSON.stringify({
      follow_up: true,
      concept_results: [
        { ...benResult, activity_session_uid: uids.sessions.ben, concept_uid: uids.concepts.parallel, question_type: 'lessons-slide' },
      ],
    });
    const first = await gateway.rest('PUT', finishLessonPath(), { token: tokens.owner, ...urlEncodedForm({ json }) });
    expect(first.status).toBe(200);
    // The same body again changes nothing: no second FINISHED; the next event is the lock below.
    const retry = await gateway.rest('PUT', finishLessonPath(), { token: tokens.owner, ...multipartForm({ json }) });
    expect(retry.status).toBe(200);
    expect(await teacher.waitForEvents(2)).toHaveLength(2);
    await gateway.rest('PUT', classroomActivityPath('unpin_and_lock_activity'), { token: tokens.owner });

    const events = await teacher.waitForEvents(3);
    expect(events.map((e) => e.kind)).toEqual(['LOCKED', 'FINISHED', 'LOCKED']);
    expect(events[1]!.followUpUrl).toBe(first.body.follow_up_url ?? first.body.data?.follow_up_url);
  });

  it('a second finish that assigns or unlocks the follow-up sends FINISHED with its URL; one that changes nothing sends none', async () => {
    const student = await following(tokens.student);
    const finish = async (followUp: boolean) => {
      const answer = await gateway.rest('PUT', finishLessonPath(), { token: tokens.owner, body: { follow_up: followUp } });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.follow_up_url as string;
    };
    const ended = await finish(false);
    const assigned = await finish(true);
    expect(assigned).toMatch(FOLLOW_UP_URL);
    expect(await finish(true)).toBe(assigned);
    // The teacher locks the follow-up; finishing with it again unlocks it, which the students must hear.
    const followUpId = /classroom_activities\/(\d+)\//.exec(assigned)![1]!;
    const locked = await gateway.rest('PUT', `/api/v1/classroom_activities/${followUpId}/unpin_and_lock_activity`, { token: tokens.owner });
    expect(locked.status).toBe(200);
    expect(await finish(true)).toBe(assigned);
    expect(await finish(true)).toBe(assigned);
    // The last event: after it, nothing else may have arrived.
    await gateway.rest('PUT', classroomActivityPath('unpin_and_lock_activity'), { token: tokens.owner });

    const events = await student.waitForEvents(4);
    expect(events.map((e) => [e.kind, e.followUpUrl])).toEqual([
      ['FINISHED', ended],
      ['FINISHED', assigned],
      ['FINISHED', assigned],
      ['LOCKED', null],
    ]);
  });

  it('sends nothing for a refused or rolled-back change', async () => {
    const teacher = await following(tokens.owner);
    // Refused: another teacher, no token.
    expect((await send(LAUNCH, ids.classroomActivity, tokens.otherTeacher)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await gateway.graphql(UNPIN_AND_LOCK, { id: String(ids.classroomActivity) })).errors?.[0]?.extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
    // Rolled back: the lesson was updated (and the event queued) before an unknown concept failed it.
    const rolledBack = await finishLesson(gateway, { conceptResults: [{ ...benResult, conceptUid: 'no-such-concept' }] });
    expect(rolledBack.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await send(LAUNCH, ids.classroomActivity)).errors).toBeUndefined();

    const events = await teacher.waitForEvents(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events.map((e) => e.kind)).toEqual(['LAUNCHED']);
  });

  it('refuses followers who may not follow, with no event', async () => {
    const outsiders = await Promise.all([
      refused(undefined, ids.classroomActivity, 'UNAUTHENTICATED'),
      refused(tokens.otherTeacher, ids.classroomActivity, 'FORBIDDEN'),
      refused(EVE_TOKEN, ids.classroomActivity, 'FORBIDDEN'),
      refused(tokens.student, 999, 'NOT_FOUND'),
      refused(tokens.owner, ids.hiddenClassroomActivity, 'NOT_FOUND'),
      refused(tokens.owner, 'not-an-id', 'NOT_FOUND'),
    ]);
    const teacher = await following(tokens.owner);
    await send(LAUNCH, ids.classroomActivity);
    await teacher.waitForEvents(1);
    for (const outsider of outsiders) expect(outsider.events()).toEqual([]);
  });

  it('closes a connection with a wrong token with 4403', async () => {
    const closed = new Promise<number>((resolve) => {
      const follower = follow(gateway.wsUrl, ids.classroomActivity, 'wrong-token', { closed: (event) => resolve(event.code) });
      followers.push(follower);
    });
    expect(await closed).toBe(4403);
  });

  it('applies the HTTP limits to subscription documents', async () => {
    const { createClient } = await import('graphql-ws');
    const WebSocket = (await import('ws')).default;
    const client = createClient({
      url: gateway.wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${tokens.owner}` },
    });
    const aliases = Array.from({ length: 20 }, (_, i) => `a${i}: kind`).join(' ');
    const error = await new Promise<any>((resolve) =>
      client.subscribe(
        { query: `subscription { lessonEvents(classroomActivityId: "${ids.classroomActivity}") { ${aliases} } }` },
        { next: () => {}, error: resolve, complete: () => resolve(null) },
      ),
    );
    expect(error?.[0]?.message).toMatch(/alias/i);
    await client.dispose();
  });

  it('launchLesson: the only pinned lesson of its classroom; assigned students without a session get an unstarted one', async () => {
    await gateway.database.prisma.$executeRawUnsafe(`DELETE FROM activity_sessions WHERE id = ${ids.sessions.dev}`);
    const answer = await send(LAUNCH, ids.classroomActivity);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.launchLesson).toMatchObject({ locked: false, pinned: true });
    const states = answer.data!.launchLesson.sessions.map((s) => [s.student.id, s.state]);
    expect(states).toEqual(expect.arrayContaining([[String(ids.students[2]), 'UNSTARTED']]));
    expect(states).toHaveLength(3);
    const pinned = await gateway.database.prisma.classroomActivity.findMany({ where: { classroomId: ids.classroom, pinned: true } });
    expect(pinned.map((row) => row.id)).toEqual([ids.classroomActivity]);
  });

  it('concurrent launches in one classroom leave exactly one pinned, and each sends its event', async () => {
    const teacher = await following(tokens.owner);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => send(LAUNCH, i % 2 === 0 ? ids.classroomActivity : SECOND_LESSON)),
    );
    for (const answer of answers) expect(answer.errors).toBeUndefined();
    const pinned = await gateway.database.prisma.classroomActivity.findMany({ where: { classroomId: ids.classroom, pinned: true } });
    expect(pinned).toHaveLength(1);
    expect(await teacher.waitForEvents(3)).toHaveLength(3);
    // Each launch gave the missing sessions once: no student has two in one lesson.
    const sessions = await gateway.database.prisma.activitySession.groupBy({ by: ['classroomActivityId', 'userId'], _count: true });
    for (const group of sessions) expect(group._count).toBe(1);
  });
});
