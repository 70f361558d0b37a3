// PUT /api/v1/classroom_activities/:id/finish_lesson, the legacy snake_case body (SPEC §3, §4).
// Effects are read back through the API (GraphQL classroomActivity, viewer) where it shows them, and
// through the database where it does not (hidden sessions, other teachers' milestones, row counts).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type Gateway, type RestAnswer } from './kit/gateway.ts';
import { fixture, ids, legacyResult, tokens, uids } from './kit/fixture.ts';

const DEFAULT_APP_URL = 'http://localhost:3000';
const COMPLETE = 'Complete Customized Lesson';

type Fixture = ReturnType<typeof fixture>;

let gateway: Gateway;

const finishPath = (id: number | string = ids.classroomActivity) => `/api/v1/classroom_activities/${id}/finish_lesson`;

function finish(body?: unknown, options: { token?: string | null; id?: number | string } = {}): Promise<RestAnswer> {
  const token = options.token === null ? undefined : (options.token ?? tokens.owner);
  return gateway.rest('PUT', finishPath(options.id), { ...(token ? { token } : {}), ...(body === undefined ? {} : { body }) });
}

const followUpUrlFor = (id: number, appUrl = DEFAULT_APP_URL) => `${appUrl}/teachers/classroom_activities/${id}/activity_from_classroom_activity`;

/** The fixture with some records changed: `patch` receives a fresh copy and edits it in place. */
function fixtureWith(patch: (data: Fixture) => void): Fixture {
  const data = fixture();
  patch(data);
  return data;
}

/** The classroom activity as its teacher reads it over GraphQL (visible sessions only). */
async function readClassroomActivity(id: number = ids.classroomActivity, token: string = tokens.owner) {
  const answer = await gateway.graphql(
    `query ($id: ID!) {
      classroomActivity(id: $id) {
        locked pinned completed editionId
        sessions { uid state percentage completedAt isFinalScore conceptResults { concept { uid } questionType metadata } }
      }
    }`,
    { id: String(id) },
    token,
  );
  expect(answer.errors).toBeUndefined();
  return answer.data.classroomActivity;
}

async function viewerMilestones(token: string): Promise<string[]> {
  const answer = await gateway.graphql('{ viewer { milestones { name } } }', {}, token);
  expect(answer.errors).toBeUndefined();
  return answer.data.viewer.milestones.map((milestone: { name: string }) => milestone.name);
}

const prisma = () => gateway.database.prisma;

async function userMilestoneCount(userId: number, name = COMPLETE): Promise<number> {
  return prisma().userMilestone.count({ where: { userId, milestone: { name } } });
}

async function followUpClassroomActivities() {
  return prisma().classroomActivity.findMany({ where: { activityId: ids.followUp }, orderBy: { id: 'asc' } });
}

async function conceptResultCount(): Promise<number> {
  return prisma().conceptResult.count();
}

/** 422 naming exactly `paths` (every offender, nothing else), and nothing written. */
async function expectInvalid(body: unknown, paths: string[], options: { id?: number } = {}): Promise<Record<string, string[]>> {
  const before = await gateway.snapshot();
  const answer = await finish(body, options);
  expect(answer.status, answer.text).toBe(422);
  expect(answer.body.meta.status).toBe('invalid');
  expect(typeof answer.body.meta.message).toBe('string');
  const errors = answer.body.meta.errors as Record<string, string[]>;
  expect(Object.keys(errors).sort()).toEqual([...paths].sort());
  for (const path of paths) {
    expect(Array.isArray(errors[path])).toBe(true);
    expect(errors[path]!.length).toBeGreaterThan(0);
    for (const message of errors[path]!) expect(typeof message).toBe('string');
  }
  expect(await gateway.snapshot()).toBe(before);
  return errors;
}

const twoResults = () => [legacyResult(uids.sessions.ben), legacyResult(uids.sessions.chloe, uids.concepts.compound, 2)];

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway?.close());

describe('finish_lesson (REST)', () => {
  beforeEach(() => gateway.reset());

  describe('access', () => {
    it('answers 404 for an unknown id, a hidden classroom activity and a non-numeric id, before checking credentials', async () => {
      for (const id of [999_999, ids.hiddenClassroomActivity, 'abc']) {
        for (const token of [tokens.owner, null, 'not-a-real-token-000000000000']) {
          const answer = await finish({ concept_results: twoResults() }, { id, token });
          expect(answer.status, `${id} ${token}`).toBe(404);
          expect(answer.body).toEqual({ meta: { status: 'not_found', message: 'The resource you were looking for does not exist', errors: null } });
        }
      }
    });

    it('answers 401 without credentials and with a wrong token, and changes nothing', async () => {
      const before = await gateway.snapshot();
      const anonymous = await finish({}, { token: null });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.meta.status).toBe('unauthorized');
      const wrong = await finish({}, { token: 'wrong-token-0123456789abcdef' });
      expect(wrong.status).toBe(401);
      expect(wrong.body.meta.status).toBe('unauthorized');
      expect(await gateway.snapshot()).toBe(before);
    });

    it('answers 403 to a teacher of another classroom and to a student, before looking at the body', async () => {
      const before = await gateway.snapshot();
      for (const token of [tokens.otherTeacher, tokens.student, tokens.staff]) {
        const answer = await finish({ follow_up: 'not a boolean', concept_results: [{}] }, { token });
        expect(answer.status, token).toBe(403);
        expect(answer.body.meta.status).toBe('forbidden');
      }
      expect(await gateway.snapshot()).toBe(before);
    });

    it('checks credentials before the body', async () => {
      const answer = await gateway.rest('PUT', finishPath(), { payload: '[1, 2', headers: { 'content-type': 'application/json' } });
      expect(answer.status).toBe(401);
    });

    it('lets the co-teacher finish the lesson; the milestone goes to the co-teacher, not the owner', async () => {
      const answer = await finish({ edition_id: 'edition-co', concept_results: twoResults() }, { token: tokens.coteacher });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
      expect(await viewerMilestones(tokens.coteacher)).toEqual([COMPLETE]);
      expect(await viewerMilestones(tokens.owner)).toEqual([]);
    });
  });

  describe('rule 1: every session is finished', () => {
    it('finishes the sessions, hidden ones too: state finished, percentage 1, completedAt now, isFinalScore true', async () => {
      const started = Date.now();
      const answer = await finish({ concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);

      const { sessions } = await readClassroomActivity();
      expect(sessions.map((session: { uid: string }) => session.uid).sort()).toEqual([uids.sessions.ben, uids.sessions.chloe].sort());
      for (const session of sessions) {
        expect(session.state).toBe('FINISHED');
        expect(session.percentage).toBe(1);
        expect(session.isFinalScore).toBe(true);
        expect(Date.parse(session.completedAt)).toBeGreaterThanOrEqual(started - 5_000);
        expect(Date.parse(session.completedAt)).toBeLessThanOrEqual(Date.now() + 5_000);
      }

      const hidden = await prisma().activitySession.findUniqueOrThrow({ where: { id: ids.sessions.hidden } });
      expect(hidden).toMatchObject({ state: 'finished', percentage: 1, isFinalScore: true, visible: false });
      expect(hidden.completedAt).toBeInstanceOf(Date);
    });

    it('keeps a completedAt that was already set', async () => {
      const earlier = '2024-01-02T03:04:05.000Z';
      await gateway.reset(
        fixtureWith((data) => {
          for (const session of data.activitySessions as Record<string, unknown>[]) {
            if (session.id === ids.sessions.ben || session.id === ids.sessions.hidden) session.completedAt = earlier;
          }
        }),
      );
      const answer = await finish({ concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);

      const { sessions } = await readClassroomActivity();
      const ben = sessions.find((session: { uid: string }) => session.uid === uids.sessions.ben);
      const chloe = sessions.find((session: { uid: string }) => session.uid === uids.sessions.chloe);
      expect(ben.completedAt).toBe(earlier);
      expect(ben.state).toBe('FINISHED');
      expect(chloe.completedAt).not.toBe(earlier);
      expect(chloe.completedAt).not.toBeNull();
      const hidden = await prisma().activitySession.findUniqueOrThrow({ where: { id: ids.sessions.hidden } });
      expect(hidden.completedAt?.toISOString()).toBe(earlier);
    });

    it('records a given edition id in every session’s data, hidden ones too, keeping the data already there', async () => {
      await gateway.reset(
        fixtureWith((data) => {
          (data.activitySessions[0] as Record<string, unknown>).data = { answers: { q1: 'yes' } };
        }),
      );
      const answer = await finish({ edition_id: 'edition-given', concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);
      const sessions = await prisma().activitySession.findMany({ where: { classroomActivityId: ids.classroomActivity } });
      expect(sessions.map((session) => session.id).sort()).toEqual([ids.sessions.ben, ids.sessions.chloe, ids.sessions.hidden]);
      for (const session of sessions) expect(Object.values(session.data as object)).toContain('edition-given');
      const ben = sessions.find((session) => session.id === ids.sessions.ben)!;
      expect((ben.data as Record<string, unknown>).answers).toEqual({ q1: 'yes' });
    });

    it('records the stored edition id in the sessions’ data when none is given', async () => {
      await gateway.reset(fixtureWith((data) => ((data.classroomActivities[0] as Record<string, unknown>).editionId = 'edition-stored')));
      const answer = await finish({ concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);
      const sessions = await prisma().activitySession.findMany({ where: { classroomActivityId: ids.classroomActivity } });
      expect(sessions).toHaveLength(3);
      for (const session of sessions) expect(Object.values(session.data as object)).toContain('edition-stored');
    });

    it('leaves the sessions’ data alone when no edition id is known', async () => {
      const answer = await finish({ concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);
      const sessions = await prisma().activitySession.findMany({ where: { classroomActivityId: ids.classroomActivity } });
      for (const session of sessions) expect(session.data).toEqual({});
    });

    it('leaves other classroom activities’ sessions alone', async () => {
      const answer = await finish({ concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);
      const other = await prisma().activitySession.findUniqueOrThrow({ where: { id: ids.sessions.other } });
      expect(other).toMatchObject({ state: 'started', percentage: null, completedAt: null, isFinalScore: false });
    });
  });

  describe('rule 2: the classroom activity is locked, unpinned and completed', () => {
    it('sets locked, pinned = false and completed, and leaves the edition id empty when none is given', async () => {
      const answer = await finish({ concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);
      expect(await readClassroomActivity()).toMatchObject({ locked: true, pinned: false, completed: true, editionId: null });
    });

    it('stores a given edition id', async () => {
      const answer = await finish({ edition_id: 'edition-7', concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);
      expect(await readClassroomActivity()).toMatchObject({ locked: true, pinned: false, completed: true, editionId: 'edition-7' });
    });

    it('keeps the stored edition id when none is given, and replaces it with a given one', async () => {
      await gateway.reset(fixtureWith((data) => ((data.classroomActivities[0] as Record<string, unknown>).editionId = 'edition-stored')));
      expect((await finish({ concept_results: twoResults() })).status).toBe(200);
      expect((await readClassroomActivity()).editionId).toBe('edition-stored');
      expect((await finish({ edition_id: 'edition-new', concept_results: twoResults() })).status).toBe(200);
      expect((await readClassroomActivity()).editionId).toBe('edition-new');
    });

    it('finishes a lesson with no body at all (an empty body counts as {})', async () => {
      const answer = await gateway.rest('PUT', finishPath(), { token: tokens.owner });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
      const row = await prisma().classroomActivity.findUniqueOrThrow({ where: { id: ids.classroomActivity } });
      expect(row).toMatchObject({ locked: true, pinned: false, completed: true });
    });

    it('leaves the other classroom activities alone', async () => {
      expect((await finish({ concept_results: twoResults() })).status).toBe(200);
      const other = await prisma().classroomActivity.findUniqueOrThrow({ where: { id: ids.otherClassroomActivity } });
      expect(other).toMatchObject({ locked: false, pinned: true, completed: false });
    });
  });

  describe('rule 3: each concept result is saved to its session', () => {
    it('saves each result to the session it names, with its concept, question type and metadata', async () => {
      const results = [
        legacyResult(uids.sessions.ben, uids.concepts.parallel, 1),
        legacyResult(uids.sessions.ben, uids.concepts.compound, 2),
        legacyResult(uids.sessions.chloe, uids.concepts.parallel, 1),
      ];
      const answer = await finish({ concept_results: results });
      expect(answer.status, answer.text).toBe(200);

      const { sessions } = await readClassroomActivity();
      const byUid = Object.fromEntries(sessions.map((session: { uid: string }) => [session.uid, session]));
      expect(byUid[uids.sessions.ben].conceptResults).toEqual([
        { concept: { uid: uids.concepts.parallel }, questionType: 'lessons-slide', metadata: results[0]!.metadata },
        { concept: { uid: uids.concepts.compound }, questionType: 'lessons-slide', metadata: results[1]!.metadata },
      ]);
      expect(byUid[uids.sessions.chloe].conceptResults).toEqual([
        { concept: { uid: uids.concepts.parallel }, questionType: 'lessons-slide', metadata: results[2]!.metadata },
      ]);
      expect(await conceptResultCount()).toBe(3);
    });

    it('keeps other metadata keys as given, and leaves out optional ones that were not sent', async () => {
      const metadata = {
        correct: 0,
        attemptNumber: 2,
        questionNumber: 3,
        answer: 'They ran, jumped and swam.',
        timeTaken: 12.5,
        tags: ['warm-up', 'review'],
        nested: { slide: { type: 'CL-MD' }, flag: true },
        nothing: null,
        prompt: '<p>Combine <strong>these</strong></p>',
      };
      const answer = await finish({
        concept_results: [{ activity_session_uid: uids.sessions.ben, concept_uid: uids.concepts.parallel, question_type: 'lessons-slide', metadata }],
      });
      expect(answer.status, answer.text).toBe(200);
      const [row] = await prisma().conceptResult.findMany({ where: { activitySessionId: ids.sessions.ben } });
      expect(row!.metadata).toEqual(metadata);
      expect(Object.keys(row!.metadata as object)).not.toContain('directions');
    });

    it('ignores unknown keys of the body and of a concept result (they are stored nowhere)', async () => {
      const answer = await finish({
        surprise: { deep: true },
        concept_results: [{ ...legacyResult(uids.sessions.ben), unknown_key: 'ignored', score: 99 }],
      });
      expect(answer.status, answer.text).toBe(200);
      const [row] = await prisma().conceptResult.findMany({ where: { activitySessionId: ids.sessions.ben } });
      expect(row!.metadata).toEqual(legacyResult(uids.sessions.ben).metadata);
      expect(JSON.stringify(await gateway.snapshot())).not.toContain('unknown_key');
    });

    it('treats an explicit null for an optional field as absent', async () => {
      const result = legacyResult(uids.sessions.ben);
      const answer = await finish({
        follow_up: null,
        edition_id: null,
        concept_results: [{ ...result, edition_id: null, metadata: { ...result.metadata, directions: null, prompt: null, answer: null } }],
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
      const [row] = await prisma().conceptResult.findMany({ where: { activitySessionId: ids.sessions.ben } });
      expect(row!.metadata).toEqual({ correct: 1, attemptNumber: 1, questionNumber: 1 });
      expect((await readClassroomActivity()).editionId).toBeNull();
      expect(await userMilestoneCount(ids.owner)).toBe(0);
      expect(await followUpClassroomActivities()).toEqual([]);
    });

    it('treats concept_results: null as an empty list', async () => {
      const answer = await finish({ concept_results: null });
      expect(answer.status, answer.text).toBe(200);
      expect(await conceptResultCount()).toBe(0);
    });

    it('adds to the results already saved from an earlier lesson run', async () => {
      expect((await finish({ concept_results: [legacyResult(uids.sessions.ben, uids.concepts.parallel, 1)] })).status).toBe(200);
      expect((await finish({ concept_results: [legacyResult(uids.sessions.ben, uids.concepts.parallel, 2)] })).status).toBe(200);
      expect(await prisma().conceptResult.count({ where: { activitySessionId: ids.sessions.ben } })).toBe(2);
    });
  });

  describe('rule 4: absent students’ sessions are deleted', () => {
    it('deletes the visible sessions left with no concept result, and keeps the hidden one', async () => {
      const answer = await finish({ concept_results: [legacyResult(uids.sessions.ben)] });
      expect(answer.status, answer.text).toBe(200);

      const { sessions } = await readClassroomActivity();
      expect(sessions.map((session: { uid: string }) => session.uid)).toEqual([uids.sessions.ben]);
      const names = await gateway.rest('GET', `/api/v1/classroom_activities/${ids.classroomActivity}/student_names`, { token: tokens.owner });
      expect(names.body).toEqual({ [uids.sessions.ben]: 'Ben Ortiz' });

      const remaining = await prisma().activitySession.findMany({ where: { classroomActivityId: ids.classroomActivity }, orderBy: { id: 'asc' } });
      expect(remaining.map((session) => session.id)).toEqual([ids.sessions.ben, ids.sessions.hidden]);
      expect(await prisma().activitySession.count({ where: { id: ids.sessions.other } })).toBe(1);
    });

    it('deletes every visible session when no concept result is sent', async () => {
      const answer = await finish({ concept_results: [] });
      expect(answer.status, answer.text).toBe(200);
      expect((await readClassroomActivity()).sessions).toEqual([]);
      const remaining = await prisma().activitySession.findMany({ where: { classroomActivityId: ids.classroomActivity } });
      expect(remaining.map((session) => session.id)).toEqual([ids.sessions.hidden]);
    });

    it('keeps a session whose results were saved by an earlier run, even when this run sends none for it', async () => {
      expect((await finish({ concept_results: twoResults() })).status).toBe(200);
      expect((await finish({ concept_results: [legacyResult(uids.sessions.ben, uids.concepts.parallel, 5)] })).status).toBe(200);
      const { sessions } = await readClassroomActivity();
      expect(sessions.map((session: { uid: string }) => session.uid).sort()).toEqual([uids.sessions.ben, uids.sessions.chloe].sort());
    });
  });

  describe('rule 5: the Complete Customized Lesson milestone', () => {
    it('is created (with the milestone record) when an edition id is given', async () => {
      expect(await prisma().milestone.count()).toBe(0);
      const answer = await finish({ edition_id: 'edition-1', concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);
      expect(await viewerMilestones(tokens.owner)).toEqual([COMPLETE]);
      expect(await prisma().milestone.count({ where: { name: COMPLETE } })).toBe(1);
    });

    it('is created when the classroom activity already has an edition id and none is given', async () => {
      await gateway.reset(fixtureWith((data) => ((data.classroomActivities[0] as Record<string, unknown>).editionId = 'edition-stored')));
      const answer = await finish({ concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);
      expect(await viewerMilestones(tokens.owner)).toEqual([COMPLETE]);
    });

    it('is created when the edition id is given only on concept results: the first one counts', async () => {
      const answer = await finish({
        concept_results: [
          legacyResult(uids.sessions.ben, uids.concepts.parallel, 1),
          { ...legacyResult(uids.sessions.ben, uids.concepts.parallel, 2), edition_id: 'edition-first' },
          { ...legacyResult(uids.sessions.chloe, uids.concepts.parallel, 1), edition_id: 'edition-second' },
        ],
      });
      expect(answer.status, answer.text).toBe(200);
      expect(await viewerMilestones(tokens.owner)).toEqual([COMPLETE]);
      expect((await readClassroomActivity()).editionId).toBe('edition-first');
      const sessions = await prisma().activitySession.findMany({ where: { classroomActivityId: ids.classroomActivity } });
      for (const session of sessions) expect(Object.values(session.data as object)).toContain('edition-first');
      // The edition id is not part of the stored result.
      for (const row of await prisma().conceptResult.findMany()) expect(JSON.stringify(row.metadata)).not.toContain('edition-');
    });

    it('prefers the top-level edition id over those on concept results', async () => {
      const answer = await finish({
        edition_id: 'edition-top',
        concept_results: [{ ...legacyResult(uids.sessions.ben), edition_id: 'edition-on-result' }],
      });
      expect(answer.status, answer.text).toBe(200);
      expect((await readClassroomActivity()).editionId).toBe('edition-top');
    });

    it('is not created when no edition id is stored or given', async () => {
      const answer = await finish({ concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);
      expect(await viewerMilestones(tokens.owner)).toEqual([]);
      expect(await prisma().userMilestone.count()).toBe(0);
    });

    it('is not duplicated when the teacher already has it', async () => {
      const milestone = await prisma().milestone.create({ data: { name: COMPLETE } });
      await prisma().userMilestone.create({ data: { userId: ids.owner, milestoneId: milestone.id } });
      const answer = await finish({ edition_id: 'edition-1', concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);
      expect(await userMilestoneCount(ids.owner)).toBe(1);
      expect(await prisma().milestone.count()).toBe(1);
      expect(await viewerMilestones(tokens.owner)).toEqual([COMPLETE]);
    });

    it('reuses the milestone record another teacher already earned', async () => {
      const milestone = await prisma().milestone.create({ data: { name: COMPLETE } });
      await prisma().userMilestone.create({ data: { userId: ids.otherTeacher, milestoneId: milestone.id } });
      expect((await finish({ edition_id: 'edition-1', concept_results: twoResults() })).status).toBe(200);
      expect(await prisma().milestone.count()).toBe(1);
      expect(await userMilestoneCount(ids.owner)).toBe(1);
      expect(await userMilestoneCount(ids.otherTeacher)).toBe(1);
    });
  });

  describe('rule 6: the follow-up', () => {
    it('creates a follow-up classroom activity: same classroom, unit, students and assignOnJoin; visible, unlocked, unpinned', async () => {
      const answer = await finish({ follow_up: true, concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);

      const created = await followUpClassroomActivities();
      expect(created).toHaveLength(1);
      const followUp = created[0]!;
      expect(followUp).toMatchObject({
        classroomId: ids.classroom,
        unitId: ids.unit,
        activityId: ids.followUp,
        assignedStudentIds: [11, 12, 13],
        assignOnJoin: true,
        visible: true,
        locked: false,
        pinned: false,
        completed: false,
      });
      expect(answer.body).toEqual({ follow_up_url: followUpUrlFor(followUp.id) });

      // It is a classroom activity like any other: its teacher can read it.
      const names = await gateway.rest('GET', `/api/v1/classroom_activities/${followUp.id}/teacher_and_classroom_name`, { token: tokens.owner });
      expect(names.status).toBe(200);
      expect(names.body).toEqual({ teacher: 'Ada Park', classroom: 'Period 1' });
    });

    it('reuses (and unlocks) the visible follow-up classroom activity of the same classroom and unit', async () => {
      await gateway.reset(
        fixtureWith((data) => {
          data.classroomActivities.push({
            id: 150, classroomId: ids.classroom, activityId: ids.followUp, unitId: ids.unit, assignedStudentIds: [11], assignOnJoin: false, pinned: true, locked: true,
          } as never);
        }),
      );
      const answer = await finish({ follow_up: true, concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ follow_up_url: followUpUrlFor(150) });
      const followUps = await followUpClassroomActivities();
      expect(followUps.map((ca) => ca.id)).toEqual([150]);
      expect(followUps[0]).toMatchObject({ locked: false, visible: true, assignedStudentIds: [11], assignOnJoin: false });
    });

    it('does not reuse a hidden follow-up, nor one of another unit or another classroom', async () => {
      await gateway.reset(
        fixtureWith((data) => {
          data.units.push({ id: 2, name: 'Other unit' } as never);
          data.classroomActivities.push(
            { id: 150, classroomId: ids.classroom, activityId: ids.followUp, unitId: ids.unit, visible: false } as never,
            { id: 151, classroomId: ids.classroom, activityId: ids.followUp, unitId: 2 } as never,
            { id: 152, classroomId: ids.classroom, activityId: ids.followUp } as never,
            { id: 153, classroomId: ids.otherClassroom, activityId: ids.followUp, unitId: ids.unit } as never,
          );
        }),
      );
      const answer = await finish({ follow_up: true, concept_results: twoResults() });
      expect(answer.status, answer.text).toBe(200);
      const followUps = await followUpClassroomActivities();
      expect(followUps.map((ca) => ca.id).slice(0, 4)).toEqual([150, 151, 152, 153]);
      expect(followUps).toHaveLength(5);
      const created = followUps[4]!;
      expect(created).toMatchObject({ classroomId: ids.classroom, unitId: ids.unit, visible: true, locked: false });
      expect(answer.body).toEqual({ follow_up_url: followUpUrlFor(created.id) });
    });

    it('answers APP_URL and creates nothing when follow_up is false or left out', async () => {
      for (const body of [{ follow_up: false, concept_results: twoResults() }, { concept_results: twoResults() }]) {
        await gateway.reset();
        const answer = await finish(body);
        expect(answer.status, answer.text).toBe(200);
        expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
        expect(await followUpClassroomActivities()).toEqual([]);
      }
    });

    it('answers APP_URL and creates nothing when the activity has no follow-up activity', async () => {
      await gateway.reset(
        fixtureWith((data) => {
          data.classroomActivities.push({ id: 102, classroomId: ids.classroom, activityId: ids.lonelyActivity, unitId: ids.unit } as never);
          data.activitySessions.push({ id: 1100, uid: 'session-lonely-0000001', classroomActivityId: 102, userId: ids.students[0], state: 'started' } as never);
        }),
      );
      const countBefore = await prisma().classroomActivity.count();
      const answer = await finish({ follow_up: true, concept_results: [legacyResult('session-lonely-0000001')] }, { id: 102 });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
      expect(await prisma().classroomActivity.count()).toBe(countBefore);
    });
  });

  describe('the body', () => {
    it('accepts the lessons client’s url-encoded form with a `json` field', async () => {
      const body = { follow_up: true, edition_id: 'edition-form', concept_results: twoResults() };
      const answer = await gateway.rest('PUT', finishPath(), {
        token: tokens.owner,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ json: JSON.stringify(body) }).toString(),
      });
      expect(answer.status, answer.text).toBe(200);
      const [followUp] = await followUpClassroomActivities();
      expect(answer.body).toEqual({ follow_up_url: followUpUrlFor(followUp!.id) });
      expect(await conceptResultCount()).toBe(2);
      expect((await readClassroomActivity()).editionId).toBe('edition-form');
    });

    it('accepts a multipart form with a `json` field', async () => {
      const boundary = '----lessons-boundary-42';
      const payload =
        `--${boundary}\r\nContent-Disposition: form-data; name="json"\r\n\r\n` +
        `${JSON.stringify({ concept_results: twoResults() })}\r\n--${boundary}--\r\n`;
      const answer = await gateway.rest('PUT', finishPath(), {
        token: tokens.owner,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(answer.status, answer.text).toBe(200);
      expect(await conceptResultCount()).toBe(2);
    });

    it('answers 400 for a form without a `json` field or whose `json` is not an object, and for a body that is not a JSON object', async () => {
      const before = await gateway.snapshot();
      const cases: { headers: Record<string, string>; payload: string }[] = [
        { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'follow_up=true' },
        { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ json: '[1,2]' }).toString() },
        { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ json: '{not json' }).toString() },
        { headers: { 'content-type': 'application/json' }, payload: '{"follow_up": tru' },
        { headers: { 'content-type': 'application/json' }, payload: '[{"follow_up": true}]' },
        { headers: { 'content-type': 'application/json' }, payload: '"a string"' },
        { headers: { 'content-type': 'application/json' }, payload: '42' },
      ];
      for (const { headers, payload } of cases) {
        const answer = await gateway.rest('PUT', finishPath(), { token: tokens.owner, headers, payload });
        expect(answer.status, payload).toBe(400);
        expect(answer.body.meta.status).toBe('bad_request');
      }
      expect(await gateway.snapshot()).toBe(before);
    });
  });

  describe('validation: 422 naming every offender, and nothing changes', () => {
    it('wrong types at the top level', async () => {
      const errors = await expectInvalid({ follow_up: 'yes', edition_id: 7, concept_results: { not: 'a list' } }, ['follow_up', 'edition_id', 'concept_results']);
      expect(errors.follow_up!.join(' ')).toContain('"yes"');
      expect(errors.edition_id!.join(' ')).toContain('7');
    });

    it('wrong types inside concept results, named by index and path', async () => {
      const good = legacyResult(uids.sessions.ben);
      const errors = await expectInvalid(
        {
          concept_results: [
            good,
            { ...good, activity_session_uid: 12345 },
            { ...good, metadata: { ...good.metadata, correct: 'yes', attemptNumber: 1.5 } },
            { ...good, metadata: { ...good.metadata, directions: 7, questionNumber: '3' } },
            { ...good, metadata: 'not an object' },
            'not an object',
            { ...good, question_type: ['lessons-slide'], edition_id: 5 },
          ],
        },
        [
          'concept_results[1].activity_session_uid',
          'concept_results[2].metadata.correct',
          'concept_results[2].metadata.attemptNumber',
          'concept_results[3].metadata.directions',
          'concept_results[3].metadata.questionNumber',
          'concept_results[4].metadata',
          'concept_results[5]',
          'concept_results[6].question_type',
          'concept_results[6].edition_id',
        ],
      );
      expect(errors['concept_results[1].activity_session_uid']!.join(' ')).toContain('12345');
      expect(errors['concept_results[2].metadata.correct']!.join(' ')).toContain('"yes"');
      expect(errors['concept_results[2].metadata.attemptNumber']!.join(' ')).toContain('1.5');
      expect(errors['concept_results[3].metadata.questionNumber']!.join(' ')).toContain('"3"');
      expect(errors['concept_results[4].metadata']!.join(' ')).toContain('"not an object"');
    });

    it('missing required fields', async () => {
      const good = legacyResult(uids.sessions.ben);
      const { activity_session_uid: _a, ...noSession } = good;
      const { concept_uid: _c, question_type: _q, ...noConceptNorType } = good;
      const { metadata: _m, ...noMetadata } = good;
      const { correct: _x, attemptNumber: _y, questionNumber: _z, ...metadataWithoutNumbers } = good.metadata;
      await expectInvalid({ concept_results: [noSession, noConceptNorType, noMetadata, { ...good, metadata: metadataWithoutNumbers }] }, [
        'concept_results[0].activity_session_uid',
        'concept_results[1].concept_uid',
        'concept_results[1].question_type',
        'concept_results[2].metadata',
        'concept_results[3].metadata.correct',
        'concept_results[3].metadata.attemptNumber',
        'concept_results[3].metadata.questionNumber',
      ]);
    });

    it('empty strings', async () => {
      const good = legacyResult(uids.sessions.ben);
      const errors = await expectInvalid(
        { edition_id: '', concept_results: [{ ...good, activity_session_uid: '' }, { ...good, concept_uid: '', question_type: '' }, { ...good, edition_id: '' }] },
        [
          'edition_id',
          'concept_results[0].activity_session_uid',
          'concept_results[1].concept_uid',
          'concept_results[1].question_type',
          'concept_results[2].edition_id',
        ],
      );
      expect(errors['concept_results[0].activity_session_uid']!.join(' ')).toContain('""');
    });

    it('an unknown concept uid', async () => {
      const errors = await expectInvalid(
        { concept_results: [legacyResult(uids.sessions.ben), legacyResult(uids.sessions.chloe), legacyResult(uids.sessions.chloe, 'no-such-concept-uid', 2)] },
        ['concept_results[2].concept_uid'],
      );
      expect(errors['concept_results[2].concept_uid']!.join(' ')).toContain('"no-such-concept-uid"');
    });

    it('a session of another classroom activity, a hidden session and an unknown session', async () => {
      const errors = await expectInvalid(
        {
          follow_up: true,
          edition_id: 'edition-x',
          concept_results: [
            legacyResult(uids.sessions.ben),
            legacyResult(uids.sessions.other),
            legacyResult(uids.sessions.chloe),
            legacyResult(uids.sessions.hidden),
            legacyResult('no-such-session-uid'),
          ],
        },
        ['concept_results[1].activity_session_uid', 'concept_results[3].activity_session_uid', 'concept_results[4].activity_session_uid'],
      );
      expect(errors['concept_results[1].activity_session_uid']!.join(' ')).toContain(`"${uids.sessions.other}"`);
      expect(errors['concept_results[3].activity_session_uid']!.join(' ')).toContain(`"${uids.sessions.hidden}"`);
      expect(errors['concept_results[4].activity_session_uid']!.join(' ')).toContain('"no-such-session-uid"');
      // Nothing changed: no milestone, no follow-up (expectInvalid compared snapshots too).
      expect(await prisma().userMilestone.count()).toBe(0);
    });

    it('names every offender: unknown session and unknown concept in one result, and several results', async () => {
      await expectInvalid(
        {
          concept_results: [
            legacyResult('nobody-here', 'nothing-here'),
            legacyResult(uids.sessions.ben),
            legacyResult(uids.sessions.other, uids.concepts.compound),
            legacyResult(uids.sessions.chloe, 'still-nothing'),
          ],
        },
        [
          'concept_results[0].activity_session_uid',
          'concept_results[0].concept_uid',
          'concept_results[2].activity_session_uid',
          'concept_results[3].concept_uid',
        ],
      );
    });

    it('names every offender when a wrong type and an unknown uid come in the same body', async () => {
      const good = legacyResult(uids.sessions.ben);
      await expectInvalid(
        {
          concept_results: [
            { ...good, metadata: { ...good.metadata, correct: 'yes' } },
            legacyResult(uids.sessions.chloe, 'no-such-concept-uid'),
            legacyResult(uids.sessions.other),
          ],
        },
        ['concept_results[0].metadata.correct', 'concept_results[1].concept_uid', 'concept_results[2].activity_session_uid'],
      );
    });

    it('a session deleted by an earlier finish_lesson counts as unknown', async () => {
      expect((await finish({ concept_results: [legacyResult(uids.sessions.ben)] })).status).toBe(200);
      await expectInvalid({ concept_results: [legacyResult(uids.sessions.dev)] }, ['concept_results[0].activity_session_uid']);
    });
  });

  describe('size', () => {
    const compact = (index: number) => ({
      activity_session_uid: index % 2 === 0 ? uids.sessions.ben : uids.sessions.chloe,
      concept_uid: uids.concepts.parallel,
      question_type: 'q',
      metadata: { correct: 1, attemptNumber: 1, questionNumber: index },
    });

    it('answers 413 for more than 10,000 concept results, and changes nothing', async () => {
      const before = await gateway.snapshot();
      const answer = await finish({ follow_up: true, edition_id: 'edition-big', concept_results: Array.from({ length: 10_001 }, (_, index) => compact(index)) });
      expect(answer.status).toBe(413);
      expect(answer.body.meta.status).toBe('payload_too_large');
      expect(await gateway.snapshot()).toBe(before);
    });

    it('accepts exactly 10,000 concept results', async () => {
      const answer = await finish({ concept_results: Array.from({ length: 10_000 }, (_, index) => compact(index)) });
      expect(answer.status, answer.text.slice(0, 500)).toBe(200);
      expect(await conceptResultCount()).toBe(10_000);
    });

    it('answers 413 for a body over the size limit', async () => {
      const answer = await gateway.rest('PUT', finishPath(), {
        token: tokens.owner,
        body: { concept_results: [], padding: 'x'.repeat(6 * 1024 * 1024) },
      });
      expect(answer.status).toBe(413);
      expect(answer.body.meta.status).toBe('payload_too_large');
    });
  });

  describe('a retry of the same request', () => {
    it('is safe: same follow_up_url, one follow-up, no duplicated results, one milestone', async () => {
      const body = { follow_up: true, edition_id: 'edition-retry', concept_results: twoResults() };
      const first = await finish(body);
      expect(first.status, first.text).toBe(200);
      const afterFirst = await state();

      const second = await finish(body);
      expect(second.status, second.text).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(await followUpClassroomActivities()).toHaveLength(1);
      expect(await conceptResultCount()).toBe(2);
      expect(await userMilestoneCount(ids.owner)).toBe(1);
      expect(await state()).toEqual(afterFirst);
    });

    it('is safe when the metadata keys come in another order', async () => {
      const result = legacyResult(uids.sessions.ben);
      expect((await finish({ concept_results: [result] })).status).toBe(200);
      const reordered = { ...result, metadata: Object.fromEntries(Object.entries(result.metadata).reverse()) };
      expect((await finish({ concept_results: [reordered] })).status).toBe(200);
      expect(await conceptResultCount()).toBe(1);
    });
  });

  describe('racing calls on one classroom activity', () => {
    const first = () => ({ concept_results: twoResults() });
    const second = () => ({
      follow_up: true,
      edition_id: 'edition-race',
      concept_results: [legacyResult(uids.sessions.ben, uids.concepts.parallel, 7), legacyResult(uids.sessions.chloe, uids.concepts.compound, 8)],
    });

    it('two identical calls both succeed and leave what two calls in a row leave', async () => {
      const body = second();
      expect((await finish(body)).status).toBe(200);
      expect((await finish(body)).status).toBe(200);
      const inARow = await state();

      await gateway.reset();
      const answers = await Promise.all([finish(body), finish(body)]);
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
      expect(answers[1]!.body).toEqual(answers[0]!.body);
      const [followUp] = await followUpClassroomActivities();
      expect(answers[0]!.body).toEqual({ follow_up_url: followUpUrlFor(followUp!.id) });
      expect(await state()).toEqual(inARow);
      expect(await followUpClassroomActivities()).toHaveLength(1);
      expect(await conceptResultCount()).toBe(2);
      expect(await userMilestoneCount(ids.owner)).toBe(1);
    });

    it('two different calls both succeed and leave what two calls in a row leave', async () => {
      expect((await finish(first())).status).toBe(200);
      expect((await finish(second())).status).toBe(200);
      const inARow = await state();

      await gateway.reset();
      const answers = await Promise.all([finish(first()), finish(second())]);
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
      expect(answers[0]!.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
      const [followUp] = await followUpClassroomActivities();
      expect(answers[1]!.body).toEqual({ follow_up_url: followUpUrlFor(followUp!.id) });
      expect(await state()).toEqual(inARow);
      expect(await conceptResultCount()).toBe(4);
    });

    it('a call that removes a session and a call that names it: the outcome matches one of the two orders', async () => {
      // In a row, ben-only then dev-only fails the second (dev was absent, so deleted); dev-only then
      // ben-only fails the second too. Racing, exactly one of the two must fail, with a clean 422.
      const answers = await Promise.all([
        finish({ concept_results: [legacyResult(uids.sessions.ben)] }),
        finish({ concept_results: [legacyResult(uids.sessions.dev)] }),
      ]);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 422]);
      expect(await conceptResultCount()).toBe(1);
      expect(await prisma().activitySession.count({ where: { classroomActivityId: ids.classroomActivity, visible: true } })).toBe(1);
    });
  });

  describe('statement count does not grow with the input', () => {
    /** Statements sent for one finish_lesson call on a freshly loaded `data`. */
    async function statementsFor(data: unknown, body: unknown): Promise<number> {
      await gateway.reset(data);
      const before = gateway.statements();
      const answer = await finish(body);
      expect(answer.status, answer.text.slice(0, 500)).toBe(200);
      return gateway.statements() - before;
    }

    const sessionUids = [uids.sessions.ben, uids.sessions.chloe, uids.sessions.dev];
    const results = (count: number) =>
      Array.from({ length: count }, (_, index) =>
        legacyResult(sessionUids[index % 3]!, index % 2 === 0 ? uids.concepts.parallel : uids.concepts.compound, index + 1),
      );

    it('is the same for 1 and for 500 concept results', async () => {
      const one = await statementsFor(fixture(), { follow_up: true, edition_id: 'e', concept_results: results(1) });
      const many = await statementsFor(fixture(), { follow_up: true, edition_id: 'e', concept_results: results(500) });
      console.info(`finish_lesson statements: 1 result → ${one}, 500 results → ${many}`);
      expect(await conceptResultCount()).toBe(500);
      expect(many).toBe(one);
      // The token with its user, the classroom activity with the viewer's membership; then, in the
      // transaction: lock-and-update the classroom activity, look the uids up, finish the sessions,
      // insert the results, delete the absent, grant the milestone, find and create the follow-up, COMMIT.
      expect(one).toBe(11);
    });

    /** The fixture with `count` visible sessions (one student each) on the lesson's classroom activity. */
    function withSessions(count: number) {
      return fixtureWith((data) => {
        data.activitySessions = data.activitySessions.filter((session) => session.classroomActivityId !== ids.classroomActivity);
        for (let index = 0; index < count; index += 1) {
          data.users.push({ id: 1000 + index, name: `Student ${index}`, role: 'student' } as never);
          data.activitySessions.push({
            id: 5000 + index, uid: `session-many-${String(index).padStart(6, '0')}`, classroomActivityId: ids.classroomActivity, userId: 1000 + index, state: 'started',
          } as never);
        }
        // One hidden session too, as in real classes.
        data.activitySessions.push({ id: 6000, uid: 'session-many-hidden', classroomActivityId: ids.classroomActivity, userId: ids.students[3], state: 'started', visible: false } as never);
      });
    }
    /** One result for all but the last session (so one session is deleted as absent). */
    const resultsFor = (count: number) =>
      Array.from({ length: count - 1 }, (_, index) => legacyResult(`session-many-${String(index).padStart(6, '0')}`, uids.concepts.parallel, 1));

    it('is the same for 2 and for 40 sessions', async () => {
      const two = await statementsFor(withSessions(2), { follow_up: true, edition_id: 'e', concept_results: resultsFor(2) });
      const forty = await statementsFor(withSessions(40), { follow_up: true, edition_id: 'e', concept_results: resultsFor(40) });
      console.info(`finish_lesson statements: 2 sessions → ${two}, 40 sessions → ${forty}`);
      expect(await prisma().activitySession.count({ where: { classroomActivityId: ids.classroomActivity } })).toBe(40);
      expect(forty).toBe(two);
    });
  });
});

/** What finish_lesson leaves, without ids and times that differ between runs. */
async function state() {
  const db = prisma();
  const classroomActivities = await db.classroomActivity.findMany({ orderBy: [{ activityId: 'asc' }, { id: 'asc' }] });
  const sessions = await db.activitySession.findMany({ orderBy: { id: 'asc' } });
  const results = await db.conceptResult.findMany({ include: { concept: true } });
  const userMilestones = await db.userMilestone.findMany({ include: { milestone: true } });
  return {
    classroomActivities: classroomActivities.map(({ createdAt: _c, updatedAt: _u, id, ...rest }) => ({ ...rest, id: id < 200 || id === ids.otherClassroomActivity ? id : 'new' })),
    sessions: sessions.map(({ createdAt: _c, updatedAt: _u, completedAt, ...rest }) => ({ ...rest, completed: completedAt !== null })),
    results: results
      .map((row) => ({ session: row.activitySessionId, concept: row.concept.uid, questionType: row.questionType, metadata: row.metadata }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    userMilestones: userMilestones.map((row) => ({ userId: row.userId, name: row.milestone.name })).sort((a, b) => a.userId - b.userId),
  };
}

describe('finish_lesson with a custom APP_URL', () => {
  let custom: Gateway;
  beforeAll(async () => {
    custom = await startGateway({ APP_URL: 'https://app.example.org/' });
  });
  afterAll(() => custom?.close());
  beforeEach(() => custom.reset());

  const put = (body: unknown) => custom.rest('PUT', finishPath(), { token: tokens.owner, body });

  it('answers the custom APP_URL when there is no follow-up', async () => {
    const answer = await put({ concept_results: twoResults() });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ follow_up_url: 'https://app.example.org' });
  });

  it('builds the follow-up link on the custom APP_URL', async () => {
    const answer = await put({ follow_up: true, concept_results: twoResults() });
    expect(answer.status, answer.text).toBe(200);
    const [followUp] = await custom.database.prisma.classroomActivity.findMany({ where: { activityId: ids.followUp } });
    expect(answer.body).toEqual({ follow_up_url: `https://app.example.org/teachers/classroom_activities/${followUp!.id}/activity_from_classroom_activity` });
  });
});
