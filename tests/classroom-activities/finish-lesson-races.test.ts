// SPEC §4: racing finish_lesson calls on one classroom activity leave the state of the same calls made
// in a row. tests/finish-lesson.test.ts races two calls and tests/published-edition.test.ts 50
// published_edition calls; here: many calls at once, over both faces, mixed with retries, with
// unpin_and_lock and with hostile bodies that must fail without disturbing the others.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../kit/gateway.ts';
import { ids, legacyResult, tokens, uids } from '../kit/fixture.ts';
import { finishPath } from './finish-lesson-fuzz.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway?.close());
beforeEach(() => gateway.reset());

const prisma = () => gateway.database.prisma;

/** Everything finish_lesson writes, without ids and clocks. */
async function state() {
  const results = await prisma().conceptResult.findMany({ include: { activitySession: true, concept: true } });
  const sessions = await prisma().activitySession.findMany({ orderBy: { uid: 'asc' } });
  const classroomActivities = await prisma().classroomActivity.findMany({ orderBy: { id: 'asc' } });
  return {
    results: results.map((r) => `${r.activitySession.uid}|${r.concept.uid}|${r.questionType}|${JSON.stringify(r.metadata)}`).sort(),
    sessions: sessions.map((s) => ({ uid: s.uid, state: s.state, percentage: s.percentage, isFinalScore: s.isFinalScore, completed: s.completedAt !== null, data: s.data })),
    classroomActivities: classroomActivities.map(({ classroomId, activityId, unitId, locked, pinned, completed, editionId, visible }) => ({ classroomId, activityId, unitId, locked, pinned, completed, editionId, visible })),
    milestones: (await prisma().userMilestone.findMany({ include: { milestone: true } })).map((m) => `${m.userId}|${m.milestone.name}`).sort(),
  };
}

type Call = () => Promise<{ ok: boolean; followUpUrl?: string; status: number | string }>;

const rest = (body: unknown): Call => async () => {
  const answer = await gateway.rest('PUT', finishPath(), { token: tokens.owner, body });
  return { ok: answer.status === 200, followUpUrl: answer.body?.follow_up_url, status: answer.status };
};
const graphql = (input: Record<string, unknown>): Call => async () => {
  const answer = await gateway.graphql(
    `mutation ($id: ID!, $input: FinishLessonInput!) { finishLesson(id: $id, input: $input) { followUpUrl } }`,
    { id: String(ids.classroomActivity), input },
    tokens.owner,
  );
  return { ok: !answer.errors, followUpUrl: answer.data?.finishLesson?.followUpUrl, status: (answer.errors?.[0]?.extensions?.code as string) ?? 200 };
};
const unpin: Call = async () => {
  const answer = await gateway.rest('PUT', `/api/v1/classroom_activities/${ids.classroomActivity}/unpin_and_lock_activity`, { token: tokens.owner });
  return { ok: answer.status === 200, status: answer.status };
};

/**
 * Ten different valid calls. Every one names both Ben and Chloe: a call naming only Ben would remove
 * Chloe's session as absent, and a later call naming her would then rightly fail, so the outcome would
 * depend on the order the server happens to run them in.
 */
function tenCalls(): Call[] {
  return Array.from({ length: 10 }, (_, i) => {
    const edition = i % 3 === 0 ? { edition: `edition-${i}` } : {};
    if (i % 2 === 0) {
      return rest({
        follow_up: i % 4 === 0,
        ...(edition.edition ? { edition_id: edition.edition } : {}),
        concept_results: [legacyResult(uids.sessions.ben, uids.concepts.parallel, 100 + i), legacyResult(uids.sessions.chloe, uids.concepts.compound, 200 + i)],
      });
    }
    return graphql({
      followUp: i % 4 === 1,
      conceptResults: [
        { activitySessionUid: uids.sessions.ben, conceptUid: uids.concepts.compound, questionType: 'lessons-slide', metadata: { correct: 0, attemptNumber: 1, questionNumber: 300 + i } },
        { activitySessionUid: uids.sessions.chloe, conceptUid: uids.concepts.parallel, questionType: 'lessons-slide', metadata: { correct: 1, attemptNumber: 1, questionNumber: 400 + i } },
      ],
    });
  });
}

describe('many racing finish_lesson calls', () => {
  it('ten different calls over REST and GraphQL at once: all succeed and leave what the ten in a row leave (editions aside)', async () => {
    for (const call of tenCalls()) expect((await call()).ok).toBe(true);
    const inARow = await state();

    await gateway.reset();
    const answers = await Promise.all(tenCalls().map((call) => call()));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const racing = await state();
    // The stored edition id is the last given one, which depends on the order: compare it apart.
    const withoutEdition = (s: typeof racing) => ({ ...s, classroomActivities: s.classroomActivities.map(({ editionId: _e, ...rest }) => rest), sessions: s.sessions.map(({ data: _d, ...rest }) => rest) });
    expect(withoutEdition(racing)).toEqual(withoutEdition(inARow));
    const lesson = await prisma().classroomActivity.findUniqueOrThrow({ where: { id: ids.classroomActivity } });
    expect(['edition-0', 'edition-6']).toContain(lesson.editionId);
    expect(await prisma().classroomActivity.count({ where: { activityId: ids.followUp } })).toBe(1);
    expect(racing.results).toHaveLength(10 * 2);
  });

  it('ten identical retries at once: one answer, one follow-up, no duplicated result, one milestone', async () => {
    const body = { follow_up: true, edition_id: 'edition-retry', concept_results: [legacyResult(uids.sessions.ben), legacyResult(uids.sessions.chloe, uids.concepts.compound, 2)] };
    await rest(body)();
    const inARow = await state();
    await gateway.reset();
    const answers = await Promise.all(Array.from({ length: 10 }, () => rest(body)()));
    expect(answers.every((answer) => answer.ok)).toBe(true);
    expect(new Set(answers.map((answer) => answer.followUpUrl)).size).toBe(1);
    expect(await state()).toEqual(inARow);
  });

  it('finish_lesson racing unpin_and_lock, hostile bodies and another teacher: the valid calls win, the rest change nothing', async () => {
    const valid = tenCalls().slice(0, 4);
    for (const call of [...valid, unpin]) expect((await call()).ok).toBe(true);
    const inARow = await state();

    await gateway.reset();
    const hostile: Call[] = [
      rest({ concept_results: [legacyResult(uids.sessions.other)] }),
      rest({ concept_results: [legacyResult(uids.sessions.ben, 'x\u0000y')] }),
      rest({ follow_up: 'yes', concept_results: Array.from({ length: 60 }, () => 'x') }),
      graphql({ conceptResults: Array.from({ length: 60 }, () => 'x') }),
      async () => {
        const answer = await gateway.rest('PUT', finishPath(), { token: tokens.otherTeacher, body: { follow_up: true } });
        return { ok: answer.status === 200, status: answer.status };
      },
    ];
    const answers = await Promise.all([...valid, unpin, ...hostile].map((call) => call()));
    expect(answers.slice(0, 5).map((answer) => answer.status)).toEqual(Array(5).fill(200));
    expect(answers.slice(5).map((answer) => answer.status)).toEqual([422, 422, 422, 'BAD_USER_INPUT', 403]);
    const racing = await state();
    const withoutEdition = (s: typeof racing) => ({ ...s, sessions: s.sessions.map(({ data: _d, ...rest }) => rest) });
    expect(withoutEdition(racing)).toEqual(withoutEdition(inARow));
  });
});
