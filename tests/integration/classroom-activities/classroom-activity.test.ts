import { describe, expect, it } from 'vitest';
import { fixture, fixtureWithRecords, ids, lessonStudentNames, names, tokens, uids } from '../../kit/fixture.ts';
import { gatewayForTests } from '../../kit/gateway.ts';
import { errorCodes as codes, NESTED_CLASSROOM_ACTIVITY_QUERY as NESTED, readClassroomActivity } from '../../kit/graphql.ts';
import { graphql } from '../../kit/gql/index.ts';

// The classroom activities module through GraphQL (docs/contract.md, GraphQL): Query.classroomActivity
// and Mutation.unpinAndLock, and who may use them. finishLesson: finish-lesson*.test.ts; what the reads
// cost: statements.test.ts; the REST routes' translation: tests/integration/rest/classroom-activities.test.ts.

const gateway = gatewayForTests();

const FULL = graphql(`query ClassroomActivityFull($id: ID!) {
  classroomActivity(id: $id) {
    id
    activity { id uid name }
    classroom { id name teacher { id name } }
    unit { id name }
    dueDate assignedStudentIds assignOnJoin locked pinned completed editionId
    studentNames { activitySessionUid name }
    sessions { uid state percentage completedAt isFinalScore student { id name } conceptResults { concept { uid name } questionType metadata } }
  }
}`);

const FLAGS = graphql(`query ClassroomActivityFlags($id: ID!) { classroomActivity(id: $id) { id locked pinned completed } }`);
const UNPIN = graphql(`mutation UnpinAndLockFlags($id: ID!) { unpinAndLock(id: $id) { id locked pinned completed } }`);

const WRONG_TOKEN = 'wrong-token-0123456789abcdef';

const metadata = (questionNumber: number) => ({
  correct: 1,
  directions: 'Combine the sentences.',
  prompt: 'Prompt',
  answer: `Answer ${questionNumber}`,
  attemptNumber: 1,
  questionNumber,
});

describe('Query.classroomActivity', () => {
  it('answers the nested query a lesson projector sends', async () => {
    await gateway.reset(
      fixtureWithRecords({
        conceptResults: [
          { activitySessionId: ids.sessions.ben, conceptId: ids.concepts.parallel, questionType: 'lessons-slide', metadata: metadata(1) },
          { activitySessionId: ids.sessions.ben, conceptId: ids.concepts.compound, questionType: 'lessons-slide', metadata: metadata(2) },
          {
            activitySessionId: ids.sessions.hidden,
            conceptId: ids.concepts.parallel,
            questionType: 'lessons-slide',
            metadata: metadata(1),
          },
        ],
      }),
    );
    const answer = await gateway.graphql(NESTED, { id: String(ids.classroomActivity) }, tokens.owner);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({
      classroomActivity: {
        classroom: { teacher: { name: names.owner } },
        unit: { name: 'Sentence structure' },
        // The hidden session is not listed.
        studentNames: lessonStudentNames,
        sessions: [
          {
            uid: uids.sessions.ben,
            state: 'STARTED',
            student: { name: names.ben },
            conceptResults: [
              { concept: { uid: uids.concepts.parallel }, questionType: 'lessons-slide', metadata: metadata(1) },
              { concept: { uid: uids.concepts.compound }, questionType: 'lessons-slide', metadata: metadata(2) },
            ],
          },
          { uid: uids.sessions.chloe, state: 'STARTED', student: { name: names.chloe }, conceptResults: [] },
          { uid: uids.sessions.dev, state: 'UNSTARTED', student: { name: names.dev }, conceptResults: [] },
        ],
      },
    });
  });

  it('answers every field of the classroom activity', async () => {
    const answer = await gateway.graphql(FULL, { id: String(ids.classroomActivity) }, tokens.owner);
    expect(answer.errors).toBeUndefined();
    const classroomActivity = answer.data!.classroomActivity!;
    expect(classroomActivity).toMatchObject({
      id: String(ids.classroomActivity),
      activity: { id: String(ids.lesson), uid: uids.lesson, name: 'Parallel Structure' },
      classroom: { id: String(ids.classroom), name: names.classroom, teacher: { id: String(ids.owner), name: names.owner } },
      unit: { id: String(ids.unit), name: 'Sentence structure' },
      dueDate: null,
      assignedStudentIds: ['11', '12', '13'],
      assignOnJoin: true,
      locked: false,
      pinned: true,
      completed: false,
      editionId: null,
    });
    expect(classroomActivity.sessions[0]).toEqual({
      uid: uids.sessions.ben,
      state: 'STARTED',
      percentage: null,
      completedAt: null,
      isFinalScore: false,
      student: { id: String(ids.students[0]), name: names.ben },
      conceptResults: [],
    });
  });

  it('answers dates as ISO 8601, fractions as numbers, and null for a classroom activity with no unit', async () => {
    await gateway.reset(
      fixtureWithRecords({
        classroomActivities: [
          {
            id: 300,
            classroomId: ids.classroom,
            activityId: ids.followUp,
            dueDate: '2026-03-01T15:30:00+02:00',
            editionId: 'edition-7',
            locked: true,
            completed: true,
          },
        ],
        activitySessions: [
          {
            id: 3000,
            uid: 'session-done-000000001',
            classroomActivityId: 300,
            userId: ids.students[1],
            state: 'finished',
            percentage: 0.75,
            completedAt: '2026-03-01T14:00:00Z',
            isFinalScore: true,
          },
        ],
      }),
    );
    const answer = await gateway.graphql(FULL, { id: '300' }, tokens.coteacher);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.classroomActivity).toMatchObject({
      unit: null,
      dueDate: '2026-03-01T13:30:00.000Z',
      locked: true,
      pinned: false,
      completed: true,
      editionId: 'edition-7',
      assignedStudentIds: [],
      assignOnJoin: false,
      studentNames: [{ activitySessionUid: 'session-done-000000001', name: names.chloe }],
      sessions: [
        { uid: 'session-done-000000001', state: 'FINISHED', percentage: 0.75, completedAt: '2026-03-01T14:00:00.000Z', isFinalScore: true },
      ],
    });
  });

  it('lists no sessions when there are none', async () => {
    await gateway.reset({ ...fixture(), activitySessions: [] });
    const answer = await gateway.graphql(NESTED, { id: String(ids.classroomActivity) }, tokens.owner);
    expect(answer.data!.classroomActivity).toMatchObject({ studentNames: [], sessions: [] });
  });

  it('is FORBIDDEN to everyone when its classroom has no teachers', async () => {
    await gateway.reset(
      fixtureWithRecords({
        classrooms: [{ id: 3, name: 'No teachers', teachers: [] }],
        classroomActivities: [{ id: 300, classroomId: 3, activityId: ids.lesson }],
      }),
    );
    for (const token of [tokens.owner, tokens.otherTeacher, tokens.staff]) {
      expect(codes(await gateway.graphql(NESTED, { id: '300' }, token)), token).toEqual(['FORBIDDEN']);
    }
  });

  it('is open to a co-teacher of the classroom', async () => {
    const answer = await gateway.graphql(NESTED, { id: String(ids.classroomActivity) }, tokens.coteacher);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.classroomActivity!.classroom.teacher!.name).toBe(names.owner);
  });

  it('is null when unknown or hidden, whoever asks', async () => {
    for (const id of ['999', 'abc', '0', String(ids.hiddenClassroomActivity)]) {
      for (const token of [tokens.owner, undefined, WRONG_TOKEN, tokens.otherTeacher]) {
        const answer = await gateway.graphql(NESTED, { id }, token);
        expect(answer.errors, `${id} ${token}`).toBeUndefined();
        expect(answer.data, `${id} ${token}`).toEqual({ classroomActivity: null });
      }
    }
  });

  it('answers UNAUTHENTICATED without a token, or with a wrong one', async () => {
    for (const token of [undefined, WRONG_TOKEN]) {
      const answer = await gateway.graphql(NESTED, { id: String(ids.classroomActivity) }, token);
      expect(codes(answer)).toEqual(['UNAUTHENTICATED']);
      expect(answer.data).toEqual({ classroomActivity: null });
    }
  });

  it('answers FORBIDDEN to anyone who does not teach the classroom', async () => {
    for (const token of [tokens.otherTeacher, tokens.student, tokens.staff]) {
      const answer = await gateway.graphql(NESTED, { id: String(ids.classroomActivity) }, token);
      expect(codes(answer), token).toEqual(['FORBIDDEN']);
      expect(answer.data, token).toEqual({ classroomActivity: null });
    }
    // And the other way round: the owner of Period 1 may not read Period 9's.
    expect(codes(await gateway.graphql(NESTED, { id: String(ids.otherClassroomActivity) }, tokens.owner))).toEqual(['FORBIDDEN']);
    expect(
      (await gateway.graphql(NESTED, { id: String(ids.otherClassroomActivity) }, tokens.otherTeacher)).data!.classroomActivity!
        .studentNames,
    ).toEqual([{ activitySessionUid: uids.sessions.other, name: names.ben }]);
  });
});

describe('Mutation.unpinAndLock', () => {
  it('unpins and locks, and says so', async () => {
    const answer = await gateway.graphql(UNPIN, { id: String(ids.classroomActivity) }, tokens.owner);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ unpinAndLock: { id: String(ids.classroomActivity), locked: true, pinned: false, completed: false } });
    expect((await gateway.graphql(FLAGS, { id: String(ids.classroomActivity) }, tokens.owner)).data!.classroomActivity).toEqual({
      id: String(ids.classroomActivity),
      locked: true,
      pinned: false,
      completed: false,
    });
  });

  it('changes neither completed, nor the sessions, nor the edition id', async () => {
    const COMPLETED_LESSON = 104;
    await gateway.reset(
      fixtureWithRecords({
        classroomActivities: [
          {
            id: COMPLETED_LESSON,
            classroomId: ids.classroom,
            activityId: ids.followUp,
            pinned: true,
            locked: false,
            completed: true,
            editionId: 'edition-7',
          },
        ],
      }),
    );
    const lessonBefore = await readClassroomActivity(gateway);

    expect((await gateway.graphql(UNPIN, { id: String(COMPLETED_LESSON) }, tokens.owner)).errors).toBeUndefined();
    expect(await readClassroomActivity(gateway, COMPLETED_LESSON)).toEqual({
      pinned: false,
      locked: true,
      completed: true,
      editionId: 'edition-7',
      sessions: [],
    });
    expect((await gateway.graphql(UNPIN, { id: String(ids.classroomActivity) }, tokens.owner)).errors).toBeUndefined();
    expect((await readClassroomActivity(gateway))!.sessions).toEqual(lessonBefore!.sessions);
  });

  it('is open to a co-teacher and may be repeated', async () => {
    for (let i = 0; i < 2; i += 1) {
      const answer = await gateway.graphql(UNPIN, { id: String(ids.classroomActivity) }, tokens.coteacher);
      expect(answer.errors).toBeUndefined();
      expect(answer.data!.unpinAndLock).toMatchObject({ locked: true, pinned: false });
    }
  });

  it('changes only that classroom activity', async () => {
    await gateway.graphql(UNPIN, { id: String(ids.classroomActivity) }, tokens.owner);
    const other = await gateway.graphql(FLAGS, { id: String(ids.otherClassroomActivity) }, tokens.otherTeacher);
    expect(other.data!.classroomActivity).toMatchObject({ locked: false, pinned: true });
  });

  it('answers NOT_FOUND for an unknown or hidden classroom activity, before checking credentials', async () => {
    const before = await gateway.snapshot();
    for (const id of ['999', 'abc', String(ids.hiddenClassroomActivity)]) {
      for (const token of [tokens.owner, undefined, WRONG_TOKEN]) {
        const answer = await gateway.graphql(UNPIN, { id }, token);
        expect(codes(answer), `${id} ${token}`).toEqual(['NOT_FOUND']);
        expect(answer.errors![0]!.message).toBe('The resource you were looking for does not exist');
        expect(answer.data, `${id} ${token}`).toBeNull();
      }
    }
    expect(await gateway.snapshot()).toBe(before);
  });

  it('answers UNAUTHENTICATED without a token or with a wrong one, and changes nothing', async () => {
    const before = await gateway.snapshot();
    expect(codes(await gateway.graphql(UNPIN, { id: String(ids.classroomActivity) }))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gateway.graphql(UNPIN, { id: String(ids.classroomActivity) }, WRONG_TOKEN))).toEqual(['UNAUTHENTICATED']);
    expect(await gateway.snapshot()).toBe(before);
  });

  it('answers FORBIDDEN to anyone who does not teach the classroom, and changes nothing', async () => {
    const before = await gateway.snapshot();
    for (const token of [tokens.otherTeacher, tokens.student, tokens.staff]) {
      expect(codes(await gateway.graphql(UNPIN, { id: String(ids.classroomActivity) }, token)), token).toEqual(['FORBIDDEN']);
    }
    expect(await gateway.snapshot()).toBe(before);
  });
});
