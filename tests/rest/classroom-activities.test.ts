import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../kit/gateway.ts';
import { ids, names, tokens, uids } from '../kit/fixture.ts';
import { classroomActivityState, fixtureWith, forbiddenBody, notFoundBody, unauthorizedBody } from './helpers.ts';

// The classroom activity reads and unpin_and_lock_activity, as the teacher's projector calls them.
// Who may call them, and in which order the checks run, is in errors-and-auth.test.ts.

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway?.close());
beforeEach(() => gateway.reset());

const studentNames = (id: number, token: string = tokens.owner) => gateway.rest('GET', `/api/v1/classroom_activities/${id}/student_names`, { token });
const teacherAndClassroom = (id: number, token: string = tokens.owner) =>
  gateway.rest('GET', `/api/v1/classroom_activities/${id}/teacher_and_classroom_name`, { token });
const unpinAndLock = (id: number, token: string = tokens.owner) => gateway.rest('PUT', `/api/v1/classroom_activities/${id}/unpin_and_lock_activity`, { token });

const EMPTY_LESSON = 102;
const ONLY_HIDDEN_SESSIONS = 103;
const COMPLETED_LESSON = 104;

describe('GET /api/v1/classroom_activities/:id/student_names', () => {
  it('maps each visible session uid to its student name', async () => {
    const answer = await studentNames(ids.classroomActivity);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      [uids.sessions.ben]: names.ben,
      [uids.sessions.chloe]: names.chloe,
      [uids.sessions.dev]: names.dev,
    });
  });

  it('leaves out hidden sessions', async () => {
    const { body } = await studentNames(ids.classroomActivity);

    expect(Object.keys(body)).not.toContain(uids.sessions.hidden);
    expect(Object.values(body)).not.toContain('Eve Hidden');
  });

  it('answers the same to a co-teacher', async () => {
    const answer = await studentNames(ids.classroomActivity, tokens.coteacher);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      [uids.sessions.ben]: names.ben,
      [uids.sessions.chloe]: names.chloe,
      [uids.sessions.dev]: names.dev,
    });
  });

  it('answers {} when no student has a session', async () => {
    await gateway.reset(fixtureWith({ classroomActivities: [{ id: EMPTY_LESSON, classroomId: ids.classroom, activityId: ids.followUp }] }));

    const answer = await studentNames(EMPTY_LESSON);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
  });

  it('answers {} when every session is hidden', async () => {
    await gateway.reset(
      fixtureWith({
        classroomActivities: [{ id: ONLY_HIDDEN_SESSIONS, classroomId: ids.classroom, activityId: ids.followUp }],
        activitySessions: [{ id: 3000, uid: 'session-hidden-only-01', classroomActivityId: ONLY_HIDDEN_SESSIONS, userId: ids.students[0], state: 'started', visible: false }],
      }),
    );

    const answer = await studentNames(ONLY_HIDDEN_SESSIONS);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
  });

  it('answers 404 for an unknown classroom activity', async () => {
    const answer = await studentNames(999);

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });
});

describe('GET /api/v1/classroom_activities/:id/teacher_and_classroom_name', () => {
  it("answers the classroom owner's name and the classroom's name", async () => {
    const answer = await teacherAndClassroom(ids.classroomActivity);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ teacher: names.owner, classroom: names.classroom });
  });

  it("answers the owner's name (not the caller's) to a co-teacher", async () => {
    const answer = await teacherAndClassroom(ids.classroomActivity, tokens.coteacher);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ teacher: names.owner, classroom: names.classroom });
  });

  it("answers another classroom's names to that classroom's teacher", async () => {
    const answer = await teacherAndClassroom(ids.otherClassroomActivity, tokens.otherTeacher);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ teacher: 'Hugo Stone', classroom: 'Period 9' });
  });

  it('answers teacher null when the classroom has no owner', async () => {
    // The import format insists on exactly one owner, so the owner's account is removed afterwards, as
    // happens when a teacher leaves: the co-teacher stays.
    await gateway.database.prisma.user.delete({ where: { id: ids.owner } });

    const answer = await teacherAndClassroom(ids.classroomActivity, tokens.coteacher);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ teacher: null, classroom: names.classroom });
  });

  it('answers 404 for a hidden classroom activity', async () => {
    const answer = await teacherAndClassroom(ids.hiddenClassroomActivity);

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });
});

describe('PUT /api/v1/classroom_activities/:id/unpin_and_lock_activity', () => {
  it('answers the bare JSON value false and leaves the lesson unpinned and locked', async () => {
    expect(await classroomActivityState(gateway, ids.classroomActivity)).toMatchObject({ pinned: true, locked: false, completed: false });

    const answer = await unpinAndLock(ids.classroomActivity);

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.text).toBe('false');
    expect(await classroomActivityState(gateway, ids.classroomActivity)).toMatchObject({ pinned: false, locked: true, completed: false });
  });

  it('does not change completed, sessions or edition id', async () => {
    await gateway.reset(
      fixtureWith({
        classroomActivities: [
          { id: COMPLETED_LESSON, classroomId: ids.classroom, activityId: ids.followUp, pinned: true, locked: false, completed: true, editionId: 'edition-7' },
        ],
      }),
    );
    const lessonBefore = await classroomActivityState(gateway, ids.classroomActivity);

    const answer = await unpinAndLock(COMPLETED_LESSON);

    expect(answer.status).toBe(200);
    expect(answer.text).toBe('false');
    expect(await classroomActivityState(gateway, COMPLETED_LESSON)).toEqual({ pinned: false, locked: true, completed: true, editionId: 'edition-7', sessions: [] });
    expect(await classroomActivityState(gateway, ids.classroomActivity)).toEqual(lessonBefore);
  });

  it('leaves the sessions of the lesson as they were', async () => {
    const before = await classroomActivityState(gateway, ids.classroomActivity);

    await unpinAndLock(ids.classroomActivity);

    expect((await classroomActivityState(gateway, ids.classroomActivity))!.sessions).toEqual(before!.sessions);
  });

  it('answers false again on a lesson already unpinned and locked', async () => {
    await unpinAndLock(ids.classroomActivity);

    const again = await unpinAndLock(ids.classroomActivity);

    expect(again.status).toBe(200);
    expect(again.text).toBe('false');
    expect(await classroomActivityState(gateway, ids.classroomActivity)).toMatchObject({ pinned: false, locked: true, completed: false });
  });

  it('works for a co-teacher', async () => {
    const answer = await unpinAndLock(ids.classroomActivity, tokens.coteacher);

    expect(answer.status).toBe(200);
    expect(answer.text).toBe('false');
    expect(await classroomActivityState(gateway, ids.classroomActivity)).toMatchObject({ pinned: false, locked: true });
  });

  it('ignores a body the client sends anyway', async () => {
    const answer = await gateway.rest('PUT', `/api/v1/classroom_activities/${ids.classroomActivity}/unpin_and_lock_activity`, { token: tokens.owner, body: { pinned: true } });

    expect(answer.status).toBe(200);
    expect(answer.text).toBe('false');
  });

  it('answers 404 for a hidden classroom activity, and changes nothing', async () => {
    const before = await gateway.snapshot();

    const answer = await unpinAndLock(ids.hiddenClassroomActivity);

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
    expect(await gateway.snapshot()).toBe(before);
  });

  it('answers 401 without a token, and changes nothing', async () => {
    const before = await gateway.snapshot();

    const answer = await gateway.rest('PUT', `/api/v1/classroom_activities/${ids.classroomActivity}/unpin_and_lock_activity`);

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
    expect(await gateway.snapshot()).toBe(before);
  });

  it("answers 403 to another classroom's teacher, and changes nothing", async () => {
    const before = await gateway.snapshot();

    const answer = await unpinAndLock(ids.classroomActivity, tokens.otherTeacher);

    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(forbiddenBody);
    expect(await gateway.snapshot()).toBe(before);
  });
});
