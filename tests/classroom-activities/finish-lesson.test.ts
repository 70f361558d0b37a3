// The GraphQL face of finish_lesson: `finishLesson(id, input)` (SPEC §4, §5). The rules are the REST
// route's (tests/finish-lesson.test.ts covers them one by one); here: the payload, the error codes, the
// camelCase field paths, metadata.extra, and the same guarantees (retry, races, statement count).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type Gateway, type GraphQLAnswer } from './kit/gateway.ts';
import { fixture, ids, tokens, uids } from './kit/fixture.ts';

const APP_URL = 'http://localhost:3000';
const COMPLETE = 'Complete Customized Lesson';

let gateway: Gateway;

const FINISH = `
  mutation Finish($id: ID!, $input: FinishLessonInput!) {
    finishLesson(id: $id, input: $input) {
      followUpUrl
      classroomActivity { id locked pinned completed editionId }
      followUpClassroomActivity {
        id locked pinned completed assignedStudentIds assignOnJoin
        activity { id } classroom { id } unit { id }
      }
    }
  }`;

type Input = Record<string, unknown>;

function finishLesson(input: Input, options: { id?: string | number; token?: string | null } = {}): Promise<GraphQLAnswer> {
  const token = options.token === null ? undefined : (options.token ?? tokens.owner);
  return gateway.graphql(FINISH, { id: String(options.id ?? ids.classroomActivity), input }, token);
}

function result(sessionUid: string, conceptUid: string = uids.concepts.parallel, questionNumber = 1, metadata: Record<string, unknown> = {}) {
  return {
    activitySessionUid: sessionUid,
    conceptUid,
    questionType: 'lessons-slide',
    metadata: { correct: 1, attemptNumber: 1, questionNumber, directions: 'Combine the sentences.', prompt: 'Prompt', answer: 'Answer', ...metadata },
  };
}

const twoResults = () => [result(uids.sessions.ben), result(uids.sessions.chloe, uids.concepts.compound, 2)];

function expectOk(answer: GraphQLAnswer) {
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  expect(answer.status).toBe(200);
  return answer.data.finishLesson;
}

function errorCode(answer: GraphQLAnswer): string | undefined {
  expect(answer.errors?.length, JSON.stringify(answer)).toBeGreaterThan(0);
  return answer.errors![0]!.extensions?.code;
}

/** BAD_USER_INPUT whose extensions.fields names exactly `paths`, and nothing written. */
async function expectBadUserInput(input: Input, paths: string[]): Promise<Record<string, string[]>> {
  const before = await gateway.snapshot();
  const answer = await finishLesson(input);
  expect(errorCode(answer)).toBe('BAD_USER_INPUT');
  expect(answer.data?.finishLesson ?? null).toBeNull();
  const fields = answer.errors![0]!.extensions!.fields as Record<string, string[]>;
  expect(Object.keys(fields).sort()).toEqual([...paths].sort());
  for (const path of paths) expect(fields[path]!.length).toBeGreaterThan(0);
  expect(await gateway.snapshot()).toBe(before);
  return fields;
}

async function readClassroomActivity(id: number = ids.classroomActivity) {
  const answer = await gateway.graphql(
    `query ($id: ID!) {
      classroomActivity(id: $id) {
        locked pinned completed editionId
        sessions { uid state percentage completedAt isFinalScore conceptResults { concept { uid } questionType metadata } }
      }
    }`,
    { id: String(id) },
    tokens.owner,
  );
  expect(answer.errors).toBeUndefined();
  return answer.data.classroomActivity;
}

async function viewerMilestones(token: string = tokens.owner): Promise<string[]> {
  const answer = await gateway.graphql('{ viewer { milestones { name } } }', {}, token);
  expect(answer.errors).toBeUndefined();
  return answer.data.viewer.milestones.map((milestone: { name: string }) => milestone.name);
}

const followUpRows = () => gateway.database.prisma.classroomActivity.findMany({ where: { activityId: ids.followUp }, orderBy: { id: 'asc' } });

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway?.close());
beforeEach(() => gateway.reset());

describe('finishLesson (GraphQL)', () => {
  describe('the payload', () => {
    it('answers followUpUrl, the finished classroom activity and the new follow-up classroom activity', async () => {
      const payload = expectOk(await finishLesson({ followUp: true, editionId: 'edition-g', conceptResults: twoResults() }));
      const [row] = await followUpRows();
      expect(payload).toEqual({
        followUpUrl: `${APP_URL}/teachers/classroom_activities/${row!.id}/activity_from_classroom_activity`,
        classroomActivity: { id: String(ids.classroomActivity), locked: true, pinned: false, completed: true, editionId: 'edition-g' },
        followUpClassroomActivity: {
          id: String(row!.id),
          locked: false,
          pinned: false,
          completed: false,
          assignedStudentIds: ['11', '12', '13'],
          assignOnJoin: true,
          activity: { id: String(ids.followUp) },
          classroom: { id: String(ids.classroom) },
          unit: { id: String(ids.unit) },
        },
      });
    });

    it('answers followUpClassroomActivity null and followUpUrl = APP_URL without a follow-up', async () => {
      const payload = expectOk(await finishLesson({ conceptResults: twoResults() }));
      expect(payload.followUpUrl).toBe(APP_URL);
      expect(payload.followUpClassroomActivity).toBeNull();
      expect(payload.classroomActivity).toEqual({ id: String(ids.classroomActivity), locked: true, pinned: false, completed: true, editionId: null });
      expect(await followUpRows()).toEqual([]);
    });

    it('answers the reused follow-up classroom activity, unlocked', async () => {
      await gateway.reset({
        ...fixture(),
        classroomActivities: [
          ...fixture().classroomActivities,
          { id: 150, classroomId: ids.classroom, activityId: ids.followUp, unitId: ids.unit, locked: true },
        ],
      });
      const payload = expectOk(await finishLesson({ followUp: true, conceptResults: twoResults() }));
      expect(payload.followUpClassroomActivity).toMatchObject({ id: '150', locked: false });
      expect(payload.followUpUrl).toBe(`${APP_URL}/teachers/classroom_activities/150/activity_from_classroom_activity`);
      expect((await followUpRows()).map((row) => row.id)).toEqual([150]);
    });

    it('uses the input defaults: followUp false, no concept results (every visible session is deleted)', async () => {
      const payload = expectOk(await finishLesson({}));
      expect(payload.followUpUrl).toBe(APP_URL);
      expect((await readClassroomActivity()).sessions).toEqual([]);
      const left = await gateway.database.prisma.activitySession.findMany({ where: { classroomActivityId: ids.classroomActivity } });
      expect(left.map((session) => session.id)).toEqual([ids.sessions.hidden]);
    });

    it('treats an explicit null editionId as absent', async () => {
      const payload = expectOk(await finishLesson({ editionId: null, conceptResults: [{ ...result(uids.sessions.ben), editionId: null }] }));
      expect(payload.classroomActivity.editionId).toBeNull();
      expect(await viewerMilestones()).toEqual([]);
    });
  });

  describe('the rules, as the GraphQL client sees them', () => {
    it('finishes the sessions, saves the results, drops absent students, keeps the hidden session', async () => {
      expectOk(await finishLesson({ conceptResults: [result(uids.sessions.ben), result(uids.sessions.ben, uids.concepts.compound, 2)] }));
      const { sessions } = await readClassroomActivity();
      expect(sessions).toHaveLength(1);
      expect(sessions[0]).toMatchObject({ uid: uids.sessions.ben, state: 'FINISHED', percentage: 1, isFinalScore: true });
      expect(sessions[0].completedAt).not.toBeNull();
      expect(sessions[0].conceptResults.map((row: { concept: { uid: string } }) => row.concept.uid)).toEqual([uids.concepts.parallel, uids.concepts.compound]);
      const hidden = await gateway.database.prisma.activitySession.findUniqueOrThrow({ where: { id: ids.sessions.hidden } });
      expect(hidden).toMatchObject({ state: 'finished', percentage: 1, isFinalScore: true });
    });

    it('stores metadata.extra keys with the known ones, as given', async () => {
      const extra = { timeTaken: 12.5, tags: ['warm-up'], nested: { slide: 'CL-MD', shown: true }, nothing: null };
      expectOk(
        await finishLesson({
          conceptResults: [
            {
              activitySessionUid: uids.sessions.ben,
              conceptUid: uids.concepts.parallel,
              questionType: 'lessons-slide',
              metadata: { correct: 0, attemptNumber: 2, questionNumber: 4, answer: 'They ran and jumped.', extra },
            },
          ],
        }),
      );
      const { sessions } = await readClassroomActivity();
      expect(sessions[0].conceptResults).toEqual([
        {
          concept: { uid: uids.concepts.parallel },
          questionType: 'lessons-slide',
          metadata: { correct: 0, attemptNumber: 2, questionNumber: 4, answer: 'They ran and jumped.', ...extra },
        },
      ]);
      const [row] = await gateway.database.prisma.conceptResult.findMany();
      expect(row!.metadata).toEqual({ correct: 0, attemptNumber: 2, questionNumber: 4, answer: 'They ran and jumped.', ...extra });
    });

    it('counts the first editionId given on a concept result when the input has none', async () => {
      const payload = expectOk(
        await finishLesson({
          conceptResults: [result(uids.sessions.ben), { ...result(uids.sessions.ben, uids.concepts.parallel, 2), editionId: 'edition-a' }, { ...result(uids.sessions.chloe), editionId: 'edition-b' }],
        }),
      );
      expect(payload.classroomActivity.editionId).toBe('edition-a');
      expect(await viewerMilestones()).toEqual([COMPLETE]);
    });

    it('grants the milestone for a stored edition id, once', async () => {
      await gateway.reset({
        ...fixture(),
        classroomActivities: fixture().classroomActivities.map((ca) => (ca.id === ids.classroomActivity ? { ...ca, editionId: 'edition-stored' } : ca)),
      });
      expect(expectOk(await finishLesson({ conceptResults: twoResults() })).classroomActivity.editionId).toBe('edition-stored');
      expectOk(await finishLesson({ editionId: 'edition-new', conceptResults: twoResults() }));
      expect(await viewerMilestones()).toEqual([COMPLETE]);
    });
  });

  describe('errors', () => {
    it('NOT_FOUND for an unknown, hidden or malformed id, whoever asks', async () => {
      for (const id of ['999999', String(ids.hiddenClassroomActivity), 'abc', '-1']) {
        for (const token of [tokens.owner, null, tokens.otherTeacher, 'wrong-token-0123456789abcdef']) {
          const answer = await finishLesson({ conceptResults: twoResults() }, { id, token });
          expect(errorCode(answer), `${id} ${token}`).toBe('NOT_FOUND');
          expect(answer.data?.finishLesson ?? null).toBeNull();
        }
      }
    });

    it('UNAUTHENTICATED without a token and with a wrong one; nothing changes', async () => {
      const before = await gateway.snapshot();
      expect(errorCode(await finishLesson({ conceptResults: twoResults() }, { token: null }))).toBe('UNAUTHENTICATED');
      expect(errorCode(await finishLesson({ conceptResults: twoResults() }, { token: 'wrong-token-0123456789abcdef' }))).toBe('UNAUTHENTICATED');
      expect(await gateway.snapshot()).toBe(before);
    });

    it('FORBIDDEN for a teacher of another classroom, a student and staff, before the input is judged; nothing changes', async () => {
      const before = await gateway.snapshot();
      for (const token of [tokens.otherTeacher, tokens.student, tokens.staff]) {
        expect(errorCode(await finishLesson({ conceptResults: [result('', 'no-such-concept')] }, { token })), token).toBe('FORBIDDEN');
      }
      expect(await gateway.snapshot()).toBe(before);
    });

    it('BAD_USER_INPUT naming empty strings by camelCase path', async () => {
      const fields = await expectBadUserInput(
        {
          editionId: '',
          conceptResults: [
            result(uids.sessions.ben),
            { ...result(uids.sessions.ben), conceptUid: '' },
            { ...result(''), questionType: ' ', editionId: '' },
          ],
        },
        ['editionId', 'conceptResults[1].conceptUid', 'conceptResults[2].activitySessionUid', 'conceptResults[2].questionType', 'conceptResults[2].editionId'],
      );
      expect(fields['conceptResults[1].conceptUid']!.join(' ')).toContain('""');
    });

    it('BAD_USER_INPUT naming every unknown concept, foreign session and hidden session, quoting each value', async () => {
      const fields = await expectBadUserInput(
        {
          followUp: true,
          editionId: 'edition-x',
          conceptResults: [
            result(uids.sessions.ben, 'no-such-concept'),
            result(uids.sessions.chloe),
            result(uids.sessions.other),
            result(uids.sessions.hidden, 'nor-this-one'),
            result('no-such-session'),
          ],
        },
        [
          'conceptResults[0].conceptUid',
          'conceptResults[2].activitySessionUid',
          'conceptResults[3].activitySessionUid',
          'conceptResults[3].conceptUid',
          'conceptResults[4].activitySessionUid',
        ],
      );
      expect(fields['conceptResults[0].conceptUid']!.join(' ')).toContain('"no-such-concept"');
      expect(fields['conceptResults[2].activitySessionUid']!.join(' ')).toContain(`"${uids.sessions.other}"`);
      expect(fields['conceptResults[3].activitySessionUid']!.join(' ')).toContain(`"${uids.sessions.hidden}"`);
      expect(fields['conceptResults[4].activitySessionUid']!.join(' ')).toContain('"no-such-session"');
    });

    it('BAD_USER_INPUT naming an empty string and an unknown uid of the same input together', async () => {
      await expectBadUserInput(
        { conceptResults: [{ ...result(uids.sessions.ben), questionType: '' }, result(uids.sessions.chloe, 'no-such-concept'), result(uids.sessions.other)] },
        ['conceptResults[0].questionType', 'conceptResults[1].conceptUid', 'conceptResults[2].activitySessionUid'],
      );
    });

    it('BAD_USER_INPUT for a variable of the wrong type (rejected by the schema); nothing changes', async () => {
      const before = await gateway.snapshot();
      for (const input of [
        { followUp: 'yes', conceptResults: twoResults() },
        { conceptResults: [{ ...result(uids.sessions.ben), metadata: { correct: 'yes', attemptNumber: 1, questionNumber: 1 } }] },
        { conceptResults: [{ ...result(uids.sessions.ben), metadata: { correct: 1, attemptNumber: 1.5, questionNumber: 1 } }] },
        { conceptResults: [{ activitySessionUid: uids.sessions.ben, conceptUid: uids.concepts.parallel, metadata: { correct: 1, attemptNumber: 1, questionNumber: 1 } }] },
      ]) {
        const answer = await finishLesson(input);
        expect(errorCode(answer), JSON.stringify(input)).toBe('BAD_USER_INPUT');
        expect(answer.data?.finishLesson ?? null).toBeNull();
      }
      expect(await gateway.snapshot()).toBe(before);
    });

    it('PAYLOAD_TOO_LARGE past 10,000 concept results; nothing changes', async () => {
      const before = await gateway.snapshot();
      const many = Array.from({ length: 10_001 }, (_, index) => ({
        activitySessionUid: uids.sessions.ben,
        conceptUid: uids.concepts.parallel,
        questionType: 'q',
        metadata: { correct: 1, attemptNumber: 1, questionNumber: index },
      }));
      expect(errorCode(await finishLesson({ conceptResults: many }))).toBe('PAYLOAD_TOO_LARGE');
      expect(await gateway.snapshot()).toBe(before);
    });
  });

  describe('retries and races', () => {
    const input = () => ({ followUp: true, editionId: 'edition-r', conceptResults: twoResults() });

    it('a retry answers the same follow-up and duplicates nothing', async () => {
      const first = expectOk(await finishLesson(input()));
      const second = expectOk(await finishLesson(input()));
      expect(second.followUpUrl).toBe(first.followUpUrl);
      expect(second.followUpClassroomActivity.id).toBe(first.followUpClassroomActivity.id);
      expect(await followUpRows()).toHaveLength(1);
      expect(await gateway.database.prisma.conceptResult.count()).toBe(2);
      expect(await viewerMilestones()).toEqual([COMPLETE]);
    });

    it('two racing identical calls both succeed, with one follow-up, two results and one milestone', async () => {
      const answers = await Promise.all([finishLesson(input()), finishLesson(input())]);
      const [a, b] = answers.map(expectOk);
      expect(b.followUpUrl).toBe(a.followUpUrl);
      expect(await followUpRows()).toHaveLength(1);
      expect(await gateway.database.prisma.conceptResult.count()).toBe(2);
      expect(await viewerMilestones()).toEqual([COMPLETE]);
    });

    it('two racing different calls both succeed and keep both calls’ results', async () => {
      const other = { conceptResults: [result(uids.sessions.ben, uids.concepts.parallel, 9), result(uids.sessions.chloe, uids.concepts.parallel, 9)] };
      const [a, b] = (await Promise.all([finishLesson(input()), finishLesson(other)])).map(expectOk);
      expect(a.followUpClassroomActivity).not.toBeNull();
      expect(b.followUpUrl).toBe(APP_URL);
      expect(await gateway.database.prisma.conceptResult.count()).toBe(4);
      expect(await followUpRows()).toHaveLength(1);
      const state = await readClassroomActivity();
      expect(state).toMatchObject({ locked: true, pinned: false, completed: true, editionId: 'edition-r' });
      expect(state.sessions).toHaveLength(2);
    });
  });

  it('sends as many statements for 500 concept results as for 1', async () => {
    const sessionUids = [uids.sessions.ben, uids.sessions.chloe, uids.sessions.dev];
    const results = (count: number) => Array.from({ length: count }, (_, index) => result(sessionUids[index % 3]!, uids.concepts.parallel, index + 1));
    const count = async (input: Input) => {
      await gateway.reset();
      const before = gateway.statements();
      expectOk(await finishLesson(input));
      return gateway.statements() - before;
    };
    const one = await count({ followUp: true, editionId: 'e', conceptResults: results(1) });
    const many = await count({ followUp: true, editionId: 'e', conceptResults: results(500) });
    console.info(`finishLesson statements: 1 result → ${one}, 500 results → ${many}`);
    expect(many).toBe(one);
  });
});
