// Racing finish_lesson calls on one classroom activity leave what the same calls leave in a row
// (docs/contract.md, finish_lesson): many calls at once, over both faces, with retries, with
// unpin_and_lock and with hostile bodies that must fail without disturbing the others.
//
// What makes that true is finish_lesson's first statement, an UPDATE of the classroom activity whose row
// lock makes a second call wait until the first has committed. On PostgreSQL the first test below proves
// that lock directly: it holds the row from another transaction, sees finish_lesson wait (and another
// classroom activity's not), and sees it read what that transaction changed. PGlite cannot show a row lock:
// it is one session that runs one transaction (indeed one query) at a time, so racing calls there are
// serialised before they reach the lock; on PGlite that test proves the serialisation instead, and the
// other races prove only that the outcome does not depend on the order.

import { describe, expect, it } from 'vitest';
import { gatewayForTests } from '../../kit/gateway.ts';
import { conceptResultInput, fixture, ids, legacyResult, tokens, uids } from '../../kit/fixture.ts';
import {
  finishLesson,
  finishLessonState,
  followUpClassroomActivities,
  followUpUrlFor,
  type FinishLessonState,
} from '../../kit/finish-lesson.ts';
import { classroomActivityPath, finishLessonPath } from '../../kit/rest.ts';

const onPostgreSQL = Boolean(process.env.DATABASE_URL);

const gateway = gatewayForTests();

const prisma = () => gateway.database.prisma;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Call = () => Promise<{ ok: boolean; followUpUrl?: string; status: number | string }>;

/** The owner's REST finish_lesson with a JSON body. */
const rest =
  (body: unknown): Call =>
  async () => {
    const answer = await gateway.rest('PUT', finishLessonPath(), { token: tokens.owner, body });
    return { ok: answer.status === 200, followUpUrl: answer.body?.follow_up_url, status: answer.status };
  };
/** The owner's GraphQL finishLesson. */
const graphql =
  (input: Record<string, unknown>): Call =>
  async () => {
    const answer = await finishLesson(gateway, input);
    return {
      ok: !answer.errors,
      followUpUrl: answer.data?.finishLesson?.followUpUrl,
      status: (answer.errors?.[0]?.extensions?.code as string) ?? 200,
    };
  };
const unpin: Call = async () => {
  const answer = await gateway.rest('PUT', classroomActivityPath('unpin_and_lock_activity'), { token: tokens.owner });
  return { ok: answer.status === 200, status: answer.status };
};

/** The state without what depends on the order of the calls: the last edition id given wins, and is written into the sessions' data. */
const withoutEdition = (state: FinishLessonState) => ({
  ...state,
  classroomActivities: state.classroomActivities.map(({ editionId: _e, ...rest }) => rest),
  sessions: state.sessions.map(({ data: _d, ...rest }) => rest),
});

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
        concept_results: [
          legacyResult(uids.sessions.ben, uids.concepts.parallel, 100 + i),
          legacyResult(uids.sessions.chloe, uids.concepts.compound, 200 + i),
        ],
      });
    }
    return graphql({
      followUp: i % 4 === 1,
      conceptResults: [
        conceptResultInput(uids.sessions.ben, uids.concepts.compound, 300 + i, { correct: 0 }),
        conceptResultInput(uids.sessions.chloe, uids.concepts.parallel, 400 + i),
      ],
    });
  });
}

describe('the lock on the classroom activity', () => {
  it(
    onPostgreSQL
      ? 'a finish_lesson waits while another transaction holds its classroom activity, then sees what that transaction did; another classroom activity’s does not wait'
      : 'a finish_lesson waits while another transaction is open, then sees what it did (PGlite runs one transaction at a time: this proves the calls are serialised, not the row lock, which only PostgreSQL can show)',
    async () => {
      let lockHeld!: () => void;
      const held = new Promise<void>((resolve) => (lockHeld = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      // What a first finish_lesson would do: lock the classroom activity's row, then change its sessions
      // (here: Chloe's is deleted, as an absent student's).
      const holder = prisma().$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT id FROM classroom_activities WHERE id = ${ids.classroomActivity} FOR UPDATE`;
          await tx.activitySession.delete({ where: { id: ids.sessions.chloe } });
          lockHeld();
          await released;
        },
        { maxWait: 10_000, timeout: 30_000 },
      );
      await held;

      let answered = false;
      const waiting = gateway
        .rest('PUT', finishLessonPath(), {
          token: tokens.owner,
          body: { concept_results: [legacyResult(uids.sessions.ben), legacyResult(uids.sessions.chloe)] },
        })
        .finally(() => (answered = true));
      await sleep(500);
      expect(answered, 'finish_lesson answered while another transaction held its classroom activity').toBe(false);
      if (onPostgreSQL) {
        // A lock on that row only: Hugo finishes his own lesson meanwhile.
        const other = await gateway.rest('PUT', finishLessonPath(ids.otherClassroomActivity), {
          token: tokens.otherTeacher,
          body: { concept_results: [legacyResult(uids.sessions.other)] },
        });
        expect(other.status, other.text).toBe(200);
        expect(answered).toBe(false);
      }

      release();
      await holder;
      // It looked the sessions up once the holder had committed: Chloe's is gone, so naming it is a 422.
      const answer = await waiting;
      expect(answer.status, answer.text).toBe(422);
      expect(Object.keys(answer.body.meta.errors)).toEqual(['concept_results[1].activity_session_uid']);
      expect(await prisma().conceptResult.count({ where: { activitySession: { classroomActivityId: ids.classroomActivity } } })).toBe(0);
    },
  );
});

describe('racing finish_lesson calls on one classroom activity', () => {
  it('ten different calls over REST and GraphQL at once: all succeed and leave what the ten in a row leave (editions aside)', async () => {
    for (const call of tenCalls()) expect((await call()).ok).toBe(true);
    const inARow = await finishLessonState(gateway);

    await gateway.reset();
    const answers = await Promise.all(tenCalls().map((call) => call()));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const racing = await finishLessonState(gateway);
    expect(withoutEdition(racing)).toEqual(withoutEdition(inARow));
    // The stored edition id is the last one given, which depends on the order.
    const lesson = await prisma().classroomActivity.findUniqueOrThrow({ where: { id: ids.classroomActivity } });
    expect(['edition-0', 'edition-6']).toContain(lesson.editionId);
    expect(await followUpClassroomActivities(gateway)).toHaveLength(1);
    expect(racing.results).toHaveLength(10 * 2);
  });

  it('ten identical retries at once: one answer naming the one follow-up, no duplicated result, one milestone', async () => {
    const body = {
      follow_up: true,
      edition_id: 'edition-retry',
      concept_results: [legacyResult(uids.sessions.ben), legacyResult(uids.sessions.chloe, uids.concepts.compound, 2)],
    };
    await rest(body)();
    const inARow = await finishLessonState(gateway);
    await gateway.reset();
    const answers = await Promise.all(Array.from({ length: 10 }, () => rest(body)()));
    expect(answers.every((answer) => answer.ok)).toBe(true);
    const followUps = await followUpClassroomActivities(gateway);
    expect(followUps).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.followUpUrl))).toEqual(new Set([followUpUrlFor(followUps[0]!.id)]));
    expect(await finishLessonState(gateway)).toEqual(inARow);
  });

  it('a call that removes a session and a call that names it: exactly one fails, with a clean 422, as in either order', async () => {
    // In a row, Ben-only then Dev-only fails the second (Dev was absent, so deleted); Dev-only then
    // Ben-only fails the second too.
    const answers = await Promise.all([
      rest({ concept_results: [legacyResult(uids.sessions.ben)] })(),
      rest({ concept_results: [legacyResult(uids.sessions.dev)] })(),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    expect(await prisma().conceptResult.count()).toBe(1);
    expect(await prisma().activitySession.count({ where: { classroomActivityId: ids.classroomActivity, visible: true } })).toBe(1);
  });

  it('racing unpin_and_lock, hostile bodies and another teacher: the valid calls win, the rest change nothing', async () => {
    const valid = tenCalls().slice(0, 4);
    for (const call of [...valid, unpin]) expect((await call()).ok).toBe(true);
    const inARow = await finishLessonState(gateway);

    await gateway.reset();
    const hostile: Call[] = [
      rest({ concept_results: [legacyResult(uids.sessions.other)] }),
      rest({ concept_results: [legacyResult(uids.sessions.ben, 'x\u0000y')] }),
      rest({ follow_up: 'yes', concept_results: Array.from({ length: 60 }, () => 'x') }),
      graphql({ conceptResults: Array.from({ length: 60 }, () => 'x') }),
      async () => {
        const answer = await gateway.rest('PUT', finishLessonPath(), { token: tokens.otherTeacher, body: { follow_up: true } });
        return { ok: answer.status === 200, status: answer.status };
      },
    ];
    const answers = await Promise.all([...valid, unpin, ...hostile].map((call) => call()));
    expect(answers.slice(0, 5).map((answer) => answer.status)).toEqual(Array(5).fill(200));
    expect(answers.slice(5).map((answer) => answer.status)).toEqual([422, 422, 422, 'BAD_USER_INPUT', 403]);
    const racing = await finishLessonState(gateway);
    // The edition ids agree here (only call 0 gives one); the sessions' data is compared apart from it as above.
    expect({ ...racing, sessions: withoutEdition(racing).sessions }).toEqual({ ...inARow, sessions: withoutEdition(inARow).sessions });
  });
});

/** The second lesson the two tests below add to the fixture's classroom and unit. */
const SECOND_LESSON = 102;

/** Loads `data`, then has the owner finish the fixture's lesson and the second one at once, with follow_up, over REST. */
async function finishBothAtOnce(data: unknown) {
  await gateway.reset(data);
  return Promise.all(
    [ids.classroomActivity, SECOND_LESSON].map((id) =>
      gateway.rest('PUT', finishLessonPath(id), { token: tokens.owner, body: { follow_up: true } }),
    ),
  );
}

describe('racing finish_lesson calls on two lessons of one classroom with the same follow-up activity', () => {
  /** The fixture plus a second lesson in the same classroom and unit, of another activity with the same follow-up. */
  const twoLessons = () => {
    const data = fixture();
    return {
      ...data,
      activities: [
        ...data.activities,
        { id: 13, uid: 'activity-sibling-0000001', name: 'Parallel Structure, again', followUpActivityId: ids.followUp },
      ],
      classroomActivities: [
        ...data.classroomActivities,
        { id: SECOND_LESSON, classroomId: ids.classroom, activityId: 13, unitId: ids.unit },
      ],
    };
  };

  it('both name the one follow-up classroom activity they share, as in a row', async () => {
    // Rule 6 reuses the classroom's follow-up in the unit when there is one: in a row, the second finish
    // reuses what the first created. Several tries, since a race may or may not interleave.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answers = await finishBothAtOnce(twoLessons());
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      const followUps = await followUpClassroomActivities(gateway);
      expect(followUps, `attempt ${attempt + 1}`).toHaveLength(1);
      expect(answers.map((answer) => answer.body.follow_up_url)).toEqual([
        followUpUrlFor(followUps[0]!.id),
        followUpUrlFor(followUps[0]!.id),
      ]);
    }
  });
});

describe('racing finish_lesson calls on two lessons that are each other’s follow-up', () => {
  /** Two lessons of one classroom and unit whose activities follow up each other. */
  const eachOthersFollowUp = () => {
    const data = fixture();
    return {
      ...data,
      activities: data.activities.map((activity) =>
        activity.id === ids.followUp ? { ...activity, followUpActivityId: ids.lesson } : activity,
      ),
      classroomActivities: [
        ...data.classroomActivities,
        { id: SECOND_LESSON, classroomId: ids.classroom, activityId: ids.followUp, unitId: ids.unit },
      ],
    };
  };

  it('both succeed, each naming the other, as in a row', async () => {
    // Each finish locks its own lesson, then unlocks the other (its follow-up): opposite orders, so
    // PostgreSQL may pick one as a deadlock's victim, and that one is run again (src/db/transaction.ts).
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answers = await finishBothAtOnce(eachOthersFollowUp());
      expect(
        answers.map((answer) => [answer.status, answer.body]),
        `attempt ${attempt + 1}`,
      ).toEqual([
        [200, { follow_up_url: followUpUrlFor(SECOND_LESSON) }],
        [200, { follow_up_url: followUpUrlFor(ids.classroomActivity) }],
      ]);
    }
  });
});
