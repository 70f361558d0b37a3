// A classroom world the tests share: who is who, with the tokens they sign in with.

export const tokens = {
  owner: 'owner-token-0123456789abcdef',
  coteacher: 'coteacher-token-0123456789abcdef',
  otherTeacher: 'other-teacher-token-0123456789abcdef',
  student: 'student-token-0123456789abcdef',
  staff: 'staff-token-0123456789abcdef',
} as const;

export const ids = {
  owner: 1,
  coteacher: 2,
  otherTeacher: 3,
  students: [11, 12, 13, 14],
  staff: 20,
  classroom: 1,
  otherClassroom: 2,
  unit: 1,
  lesson: 10,
  followUp: 11,
  lonelyActivity: 12,
  classroomActivity: 100,
  hiddenClassroomActivity: 101,
  otherClassroomActivity: 200,
  sessions: { ben: 1000, chloe: 1001, dev: 1002, hidden: 1003, other: 2000 },
  concepts: { parallel: 1, compound: 2 },
} as const;

export const uids = {
  lesson: '-KsL6d9-ij4oM7qMUZFm',
  followUp: '-KsL7Zr2m8Qp0bYwX3aA',
  lonelyActivity: '-KtQ2v9e-Wd1pFz8kLmN',
  sessions: {
    ben: 'session-ben-0000000001',
    chloe: 'session-chloe-00000001',
    dev: 'session-dev-0000000001',
    hidden: 'session-hidden-000001',
    other: 'session-other-00000001',
  },
  concepts: { parallel: 'X37oyfiNxSphA34npOb-Ig', compound: 'tLZTeV0gpGJ1fJnxX1vIPQ' },
} as const;

export const names = { owner: 'Ada Park', classroom: 'Period 1', ben: 'Ben Ortiz', chloe: 'Chloe Kim', dev: 'Dev Patel' } as const;

/** The lesson's studentNames as GraphQL lists them: its visible sessions (not Eve's hidden one), in order. */
export const lessonStudentNames = [
  { activitySessionUid: uids.sessions.ben, name: names.ben },
  { activitySessionUid: uids.sessions.chloe, name: names.chloe },
  { activitySessionUid: uids.sessions.dev, name: names.dev },
];

export function fixture() {
  return {
    users: [
      { id: ids.owner, name: names.owner, email: 'ada@example.org', role: 'teacher', token: tokens.owner },
      { id: ids.coteacher, name: 'Grace Lee', role: 'teacher', token: tokens.coteacher },
      { id: ids.otherTeacher, name: 'Hugo Stone', role: 'teacher', token: tokens.otherTeacher },
      { id: ids.students[0], name: names.ben, role: 'student', token: tokens.student },
      { id: ids.students[1], name: names.chloe, role: 'student' },
      { id: ids.students[2], name: names.dev, role: 'student' },
      { id: ids.students[3], name: 'Eve Hidden', role: 'student' },
      { id: ids.staff, name: 'Sam Staff', role: 'staff', token: tokens.staff },
    ],
    classrooms: [
      {
        id: ids.classroom,
        name: names.classroom,
        teachers: [
          { userId: ids.owner, role: 'owner' },
          { userId: ids.coteacher, role: 'coteacher' },
        ],
      },
      { id: ids.otherClassroom, name: 'Period 9', teachers: [{ userId: ids.otherTeacher, role: 'owner' }] },
    ],
    units: [{ id: ids.unit, name: 'Sentence structure' }],
    classifications: [{ id: 6, key: 'lessons', name: 'Quill Lessons' }],
    activities: [
      {
        id: ids.lesson,
        uid: uids.lesson,
        name: 'Parallel Structure',
        description: 'Build sentences whose parts match.',
        flags: ['production', 'beta'],
        data: { questions: ['q1'] },
        supportingInfo: 'https://example.org/plan.pdf',
        followUpActivityId: ids.followUp,
        classificationId: 6,
      },
      { id: ids.followUp, uid: uids.followUp, name: 'Parallel Structure Practice', flags: ['production'], classificationId: 6 },
      { id: ids.lonelyActivity, uid: uids.lonelyActivity, name: 'Compound Subjects', flags: [] },
    ],
    concepts: [
      { id: ids.concepts.parallel, uid: uids.concepts.parallel, name: 'Parallel Structure' },
      { id: ids.concepts.compound, uid: uids.concepts.compound, name: 'Compound Subjects' },
    ],
    classroomActivities: [
      {
        id: ids.classroomActivity,
        classroomId: ids.classroom,
        activityId: ids.lesson,
        unitId: ids.unit,
        assignedStudentIds: [11, 12, 13],
        assignOnJoin: true,
        pinned: true,
      },
      { id: ids.hiddenClassroomActivity, classroomId: ids.classroom, activityId: ids.lonelyActivity, visible: false },
      { id: ids.otherClassroomActivity, classroomId: ids.otherClassroom, activityId: ids.lesson, pinned: true },
    ],
    activitySessions: [
      {
        id: ids.sessions.ben,
        uid: uids.sessions.ben,
        classroomActivityId: ids.classroomActivity,
        userId: ids.students[0],
        state: 'started',
      },
      {
        id: ids.sessions.chloe,
        uid: uids.sessions.chloe,
        classroomActivityId: ids.classroomActivity,
        userId: ids.students[1],
        state: 'started',
      },
      {
        id: ids.sessions.dev,
        uid: uids.sessions.dev,
        classroomActivityId: ids.classroomActivity,
        userId: ids.students[2],
        state: 'unstarted',
      },
      {
        id: ids.sessions.hidden,
        uid: uids.sessions.hidden,
        classroomActivityId: ids.classroomActivity,
        userId: ids.students[3],
        state: 'started',
        visible: false,
      },
      {
        id: ids.sessions.other,
        uid: uids.sessions.other,
        classroomActivityId: ids.otherClassroomActivity,
        userId: ids.students[0],
        state: 'started',
      },
    ],
  };
}

export type Fixture = ReturnType<typeof fixture>;

/** The fixture with extra records appended to some of its lists (concept results too, which it has none of). */
export function fixtureWithRecords(extra: Partial<Record<keyof Fixture | 'conceptResults', unknown[]>>): Fixture {
  const data: Record<string, unknown[]> = fixture();
  for (const [list, records] of Object.entries(extra)) data[list] = [...(data[list] ?? []), ...(records ?? [])];
  return data as Fixture;
}

/** The fixture with some records changed: `edit` receives a fresh copy and changes it in place. */
export function fixtureEdited(edit: (data: Fixture) => void): Fixture {
  const data = fixture();
  edit(data);
  return data;
}

/** One concept result of the legacy REST body (snake_case). */
export function legacyResult(
  sessionUid: string,
  conceptUid: string = uids.concepts.parallel,
  questionNumber = 1,
  extra: Record<string, unknown> = {},
) {
  return {
    activity_session_uid: sessionUid,
    concept_uid: conceptUid,
    question_type: 'lessons-slide',
    metadata: {
      correct: 1,
      directions: 'Combine the sentences.',
      prompt: 'Prompt',
      answer: 'Answer',
      attemptNumber: 1,
      questionNumber,
      ...extra,
    },
  };
}

/** The same concept result as GraphQL's FinishLessonInput takes it (camelCase). */
export function conceptResultInput(
  sessionUid: string,
  conceptUid: string = uids.concepts.parallel,
  questionNumber = 1,
  extra: Record<string, unknown> = {},
) {
  const { activity_session_uid, concept_uid, question_type, metadata } = legacyResult(sessionUid, conceptUid, questionNumber, extra);
  return { activitySessionUid: activity_session_uid, conceptUid: concept_uid, questionType: question_type, metadata };
}
