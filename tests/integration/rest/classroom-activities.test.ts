import { describe, expect, it } from 'vitest';
import { gatewayForTests } from '../../kit/gateway.ts';
import { fixtureWithRecords, ids, names, tokens, uids } from '../../kit/fixture.ts';
import { readClassroomActivity } from '../../kit/graphql.ts';
import { classroomActivityPath } from '../../kit/rest.ts';

// The classroom activity reads and unpin_and_lock_activity as the teacher's projector calls them: what
// each answers, in the legacy shape (docs/contract.md, REST routes). Who may call them, and in which order
// the checks run: errors-and-auth.test.ts; the rules behind them: tests/integration/classroom-activities/.

const gateway = gatewayForTests();

const studentNames = (id: number, token: string = tokens.owner) =>
  gateway.rest('GET', classroomActivityPath('student_names', id), { token });
const teacherAndClassroom = (id: number, token: string = tokens.owner) =>
  gateway.rest('GET', classroomActivityPath('teacher_and_classroom_name', id), { token });

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

  it('answers {} when no student has a visible session: none at all, or only hidden ones', async () => {
    const EMPTY_LESSON = 102;
    const ONLY_HIDDEN_SESSIONS = 103;
    await gateway.reset(
      fixtureWithRecords({
        classroomActivities: [
          { id: EMPTY_LESSON, classroomId: ids.classroom, activityId: ids.followUp },
          { id: ONLY_HIDDEN_SESSIONS, classroomId: ids.classroom, activityId: ids.followUp },
        ],
        activitySessions: [
          {
            id: 3000,
            uid: 'session-hidden-only-01',
            classroomActivityId: ONLY_HIDDEN_SESSIONS,
            userId: ids.students[0],
            state: 'started',
            visible: false,
          },
        ],
      }),
    );

    for (const id of [EMPTY_LESSON, ONLY_HIDDEN_SESSIONS]) {
      const answer = await studentNames(id);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({});
    }
  });
});

describe('GET /api/v1/classroom_activities/:id/teacher_and_classroom_name', () => {
  it("answers the classroom owner's name and the classroom's name", async () => {
    const answer = await teacherAndClassroom(ids.classroomActivity);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ teacher: names.owner, classroom: names.classroom });

    const other = await teacherAndClassroom(ids.otherClassroomActivity, tokens.otherTeacher);
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ teacher: 'Hugo Stone', classroom: 'Period 9' });
  });

  it('answers teacher null when the classroom has no owner', async () => {
    // The import format insists on exactly one owner, so the owner's account is removed afterwards, as
    // happens when a teacher leaves: the co-teacher stays.
    await gateway.database.prisma.user.delete({ where: { id: ids.owner } });

    const answer = await teacherAndClassroom(ids.classroomActivity, tokens.coteacher);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ teacher: null, classroom: names.classroom });
  });
});

describe('PUT /api/v1/classroom_activities/:id/unpin_and_lock_activity', () => {
  it('answers the bare JSON value false and leaves the lesson unpinned and locked', async () => {
    expect(await readClassroomActivity(gateway)).toMatchObject({ pinned: true, locked: false, completed: false });

    const answer = await gateway.rest('PUT', classroomActivityPath('unpin_and_lock_activity'), { token: tokens.owner });

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.text).toBe('false');
    expect(await readClassroomActivity(gateway)).toMatchObject({ pinned: false, locked: true, completed: false });
  });

  it('ignores a body the client sends anyway', async () => {
    const answer = await gateway.rest('PUT', classroomActivityPath('unpin_and_lock_activity'), {
      token: tokens.owner,
      body: { pinned: true },
    });

    expect(answer.status).toBe(200);
    expect(answer.text).toBe('false');
    expect(await readClassroomActivity(gateway)).toMatchObject({ pinned: false, locked: true });
  });
});
