// finish_lesson's rules (docs/contract.md, finish_lesson), through GraphQL `finishLesson`: who may call it,
// the six rules one by one, what it answers, invalid input, size, a retry and the statement count. The
// REST route runs the same rules: tests/integration/rest/finish-lesson*.test.ts check only its translation (the
// snake_case body, statuses, the envelope, forms). Racing calls: finish-lesson-races.test.ts.
// Effects are read back through GraphQL where it shows them, and through the database where it does not
// (hidden sessions, other teachers' milestones, row counts).

import { describe, expect, it } from 'vitest';
import { gatewayForTests, type GraphQLAnswer } from '../../kit/gateway.ts';
import { conceptResultInput as result, fixture, fixtureEdited, fixtureWithRecords, ids, names, tokens, uids } from '../../kit/fixture.ts';
import { readClassroomActivity, viewerMilestones } from '../../kit/graphql.ts';
import { graphql } from '../../kit/gql/index.ts';
import {
  COMPLETE_CUSTOMIZED_LESSON as COMPLETE,
  DEFAULT_APP_URL,
  FINISH_LESSON_URL,
  finishLesson,
  finishLessonPayload,
  finishLessonState,
  followUpClassroomActivities,
  followUpUrlFor,
} from '../../kit/finish-lesson.ts';

type Input = Record<string, unknown>;

const gateway = gatewayForTests();

const finish = (input: Input, options: Parameters<typeof finishLesson>[2] = {}) => finishLesson(gateway, input, options);
/** Finishes the lesson, which must succeed, and answers the payload. */
const finished = async (input: Input, options: { id?: string | number; token?: string | null } = {}) =>
  finishLessonPayload(await finish(input, options));

const twoResults = () => [result(uids.sessions.ben), result(uids.sessions.chloe, uids.concepts.compound, 2)];
const prisma = () => gateway.database.prisma;
/** The fixture's lesson as its owner reads it over GraphQL (visible sessions only). */
const lesson = async () => (await readClassroomActivity(gateway))!;
const milestonesOf = (token: string) => viewerMilestones(gateway, token);
const userMilestoneCount = (userId: number) => prisma().userMilestone.count({ where: { userId, milestone: { name: COMPLETE } } });
const conceptResultCount = () => prisma().conceptResult.count();
const sessionRows = () =>
  prisma().activitySession.findMany({ where: { classroomActivityId: ids.classroomActivity }, orderBy: { id: 'asc' } });
/** The fixture whose lesson already has edition id 'edition-stored'. */
const withStoredEdition = () =>
  fixtureEdited((data) => ((data.classroomActivities[0] as Record<string, unknown>).editionId = 'edition-stored'));

function errorCode(answer: GraphQLAnswer): string | undefined {
  expect(answer.errors?.length, JSON.stringify(answer)).toBeGreaterThan(0);
  return answer.errors![0]!.extensions?.code;
}

/** BAD_USER_INPUT whose extensions.fields names exactly `paths`, and nothing written. */
async function expectBadUserInput(input: Input, paths: string[]): Promise<Record<string, string[]>> {
  const before = await gateway.snapshot();
  const answer = await finish(input);
  expect(errorCode(answer)).toBe('BAD_USER_INPUT');
  expect(answer.data?.finishLesson ?? null).toBeNull();
  const fields = answer.errors![0]!.extensions!.fields as Record<string, string[]>;
  expect(Object.keys(fields).sort()).toEqual([...paths].sort());
  for (const path of paths) expect(fields[path]!.length).toBeGreaterThan(0);
  expect(await gateway.snapshot()).toBe(before);
  return fields;
}

describe('who may finish a lesson', () => {
  it('nobody may finish an unknown, hidden or malformed classroom activity: NOT_FOUND, whoever asks', async () => {
    for (const id of ['999999', String(ids.hiddenClassroomActivity), 'abc', '-1']) {
      for (const token of [tokens.owner, null, tokens.otherTeacher, 'wrong-token-0123456789abcdef']) {
        const answer = await finish({ conceptResults: twoResults() }, { id, token });
        expect(errorCode(answer), `${id} ${token}`).toBe('NOT_FOUND');
        expect(answer.data?.finishLesson ?? null).toBeNull();
      }
    }
  });

  it('a caller without a token, or with a wrong one, is UNAUTHENTICATED and changes nothing', async () => {
    const before = await gateway.snapshot();
    expect(errorCode(await finish({ conceptResults: twoResults() }, { token: null }))).toBe('UNAUTHENTICATED');
    expect(errorCode(await finish({ conceptResults: twoResults() }, { token: 'wrong-token-0123456789abcdef' }))).toBe('UNAUTHENTICATED');
    expect(await gateway.snapshot()).toBe(before);
  });

  it('a teacher of another classroom, a student and staff are FORBIDDEN before the input is judged, and change nothing', async () => {
    const before = await gateway.snapshot();
    for (const token of [tokens.otherTeacher, tokens.student, tokens.staff]) {
      expect(errorCode(await finish({ conceptResults: [result('', 'no-such-concept')] }, { token })), token).toBe('FORBIDDEN');
    }
    expect(await gateway.snapshot()).toBe(before);
  });

  it('the co-teacher may finish the lesson, and the milestone goes to the co-teacher, not the owner', async () => {
    const payload = await finished({ editionId: 'edition-co', conceptResults: twoResults() }, { token: tokens.coteacher });
    expect(payload.followUpUrl).toBe(DEFAULT_APP_URL);
    expect(await milestonesOf(tokens.coteacher)).toEqual([COMPLETE]);
    expect(await milestonesOf(tokens.owner)).toEqual([]);
  });
});

describe('rule 1: every session is finished', () => {
  it('finishes the sessions, hidden ones too: state finished, percentage 1, completedAt now, isFinalScore true', async () => {
    const started = Date.now();
    await finished({ conceptResults: twoResults() });

    const { sessions } = await lesson();
    expect(sessions.map((session) => session.uid).sort()).toEqual([uids.sessions.ben, uids.sessions.chloe].sort());
    for (const session of sessions) {
      expect(session).toMatchObject({ state: 'FINISHED', percentage: 1, isFinalScore: true });
      expect(Date.parse(session.completedAt!)).toBeGreaterThanOrEqual(started - 5_000);
      expect(Date.parse(session.completedAt!)).toBeLessThanOrEqual(Date.now() + 5_000);
    }

    const hidden = await prisma().activitySession.findUniqueOrThrow({ where: { id: ids.sessions.hidden } });
    expect(hidden).toMatchObject({ state: 'finished', percentage: 1, isFinalScore: true, visible: false });
    expect(hidden.completedAt).toBeInstanceOf(Date);
  });

  it('keeps a completedAt that was already set', async () => {
    const earlier = '2024-01-02T03:04:05.000Z';
    await gateway.reset(
      fixtureEdited((data) => {
        for (const session of data.activitySessions as Record<string, unknown>[]) {
          if (session.id === ids.sessions.ben || session.id === ids.sessions.hidden) session.completedAt = earlier;
        }
      }),
    );
    await finished({ conceptResults: twoResults() });

    const { sessions } = await lesson();
    const ben = sessions.find((session) => session.uid === uids.sessions.ben)!;
    const chloe = sessions.find((session) => session.uid === uids.sessions.chloe)!;
    expect(ben.completedAt).toBe(earlier);
    expect(ben.state).toBe('FINISHED');
    expect(chloe.completedAt).not.toBe(earlier);
    expect(chloe.completedAt).not.toBeNull();
    const hidden = await prisma().activitySession.findUniqueOrThrow({ where: { id: ids.sessions.hidden } });
    expect(hidden.completedAt?.toISOString()).toBe(earlier);
  });

  it('records a given edition id in every session’s data, hidden ones too, keeping the data already there', async () => {
    await gateway.reset(fixtureEdited((data) => ((data.activitySessions[0] as Record<string, unknown>).data = { answers: { q1: 'yes' } })));
    await finished({ editionId: 'edition-given', conceptResults: twoResults() });
    const sessions = await sessionRows();
    expect(sessions.map((session) => session.id)).toEqual([ids.sessions.ben, ids.sessions.chloe, ids.sessions.hidden]);
    for (const session of sessions) expect(Object.values(session.data as object)).toContain('edition-given');
    expect((sessions[0]!.data as Record<string, unknown>).answers).toEqual({ q1: 'yes' });
  });

  it('records the stored edition id in the sessions’ data when none is given', async () => {
    await gateway.reset(withStoredEdition());
    await finished({ conceptResults: twoResults() });
    const sessions = await sessionRows();
    expect(sessions).toHaveLength(3);
    for (const session of sessions) expect(Object.values(session.data as object)).toContain('edition-stored');
  });

  it('leaves the sessions’ data alone when no edition id is known', async () => {
    await finished({ conceptResults: twoResults() });
    for (const session of await sessionRows()) expect(session.data).toEqual({});
  });

  it('leaves the sessions of other classroom activities alone', async () => {
    await finished({ conceptResults: twoResults() });
    const other = await prisma().activitySession.findUniqueOrThrow({ where: { id: ids.sessions.other } });
    expect(other).toMatchObject({ state: 'started', percentage: null, completedAt: null, isFinalScore: false });
  });
});

describe('rule 2: the classroom activity is locked, unpinned and completed', () => {
  it('locks, unpins and completes it, answers it so, and leaves its edition id empty when none is given', async () => {
    const payload = await finished({ conceptResults: twoResults() });
    const expected = { locked: true, pinned: false, completed: true, editionId: null };
    expect(payload.classroomActivity).toEqual({ id: String(ids.classroomActivity), ...expected });
    expect(await lesson()).toMatchObject(expected);
  });

  it('stores a given edition id', async () => {
    const payload = await finished({ editionId: 'edition-7', conceptResults: twoResults() });
    expect(payload.classroomActivity.editionId).toBe('edition-7');
    expect(await lesson()).toMatchObject({ locked: true, pinned: false, completed: true, editionId: 'edition-7' });
  });

  it('keeps the stored edition id when none is given, and replaces it with a given one', async () => {
    await gateway.reset(withStoredEdition());
    expect((await finished({ conceptResults: twoResults() })).classroomActivity.editionId).toBe('edition-stored');
    expect((await lesson()).editionId).toBe('edition-stored');
    await finished({ editionId: 'edition-new', conceptResults: twoResults() });
    expect((await lesson()).editionId).toBe('edition-new');
  });

  it('leaves the other classroom activities alone', async () => {
    await finished({ conceptResults: twoResults() });
    const other = await prisma().classroomActivity.findUniqueOrThrow({ where: { id: ids.otherClassroomActivity } });
    expect(other).toMatchObject({ locked: false, pinned: true, completed: false });
  });
});

describe('rule 3: each concept result is saved to its session', () => {
  it('saves each result to the session it names, with its concept, question type and metadata', async () => {
    const results = [
      result(uids.sessions.ben, uids.concepts.parallel, 1),
      result(uids.sessions.ben, uids.concepts.compound, 2),
      result(uids.sessions.chloe, uids.concepts.parallel, 1),
    ];
    await finished({ conceptResults: results });

    const byUid = Object.fromEntries((await lesson()).sessions.map((session) => [session.uid, session]));
    expect(byUid[uids.sessions.ben]!.conceptResults).toEqual([
      { concept: { uid: uids.concepts.parallel }, questionType: 'lessons-slide', metadata: results[0]!.metadata },
      { concept: { uid: uids.concepts.compound }, questionType: 'lessons-slide', metadata: results[1]!.metadata },
    ]);
    expect(byUid[uids.sessions.chloe]!.conceptResults).toEqual([
      { concept: { uid: uids.concepts.parallel }, questionType: 'lessons-slide', metadata: results[2]!.metadata },
    ]);
    expect(await conceptResultCount()).toBe(3);
  });

  it('stores the keys of metadata.extra beside the known ones, as given', async () => {
    const extra = { timeTaken: 12.5, tags: ['warm-up'], nested: { slide: 'CL-MD', shown: true }, nothing: null };
    const metadata = { correct: 0, attemptNumber: 2, questionNumber: 4, answer: 'They ran and jumped.' };
    await finished({
      conceptResults: [
        {
          activitySessionUid: uids.sessions.ben,
          conceptUid: uids.concepts.parallel,
          questionType: 'lessons-slide',
          metadata: { ...metadata, extra },
        },
      ],
    });
    const { sessions } = await lesson();
    expect(sessions[0]!.conceptResults).toEqual([
      { concept: { uid: uids.concepts.parallel }, questionType: 'lessons-slide', metadata: { ...metadata, ...extra } },
    ]);
    const [row] = await prisma().conceptResult.findMany();
    expect(row!.metadata).toEqual({ ...metadata, ...extra });
  });

  it('stores a __proto__ key of a metadata.extra literal as given, like any other (docs/contract.md, finish_lesson)', async () => {
    // As a literal of the document: a JSON body holding `__proto__` is refused (400) before GraphQL reads it (SECURITY.md).
    const answer = await gateway.graphql(
      `mutation ProtoKey($id: ID!) {
        finishLesson(id: $id, input: { conceptResults: [{ activitySessionUid: "${uids.sessions.ben}", conceptUid: "${uids.concepts.parallel}",
          questionType: "lessons-slide", metadata: { correct: 1, attemptNumber: 1, questionNumber: 1,
            extra: { __proto__: { polluted: true }, note: "n" } } }] }) { followUpUrl }
      }`,
      { id: String(ids.classroomActivity) },
      tokens.owner,
    );
    expect(answer.errors).toBeUndefined();
    const rows = await prisma().$queryRaw<{ proto: unknown; note: unknown }[]>`
      SELECT metadata->'__proto__' AS proto, metadata->'note' AS note FROM concept_results`;
    expect(rows).toEqual([{ proto: { polluted: true }, note: 'n' }]);
  });

  it('adds to the results already saved by an earlier run of the lesson', async () => {
    await finished({ conceptResults: [result(uids.sessions.ben, uids.concepts.parallel, 1)] });
    await finished({ conceptResults: [result(uids.sessions.ben, uids.concepts.parallel, 2)] });
    expect(await prisma().conceptResult.count({ where: { activitySessionId: ids.sessions.ben } })).toBe(2);
  });
});

describe('rule 4: absent students’ sessions are deleted', () => {
  it('deletes the visible sessions left with no concept result, and keeps the hidden one', async () => {
    await finished({ conceptResults: [result(uids.sessions.ben), result(uids.sessions.ben, uids.concepts.compound, 2)] });

    const answer = await gateway.graphql(
      graphql(
        `query LessonStudentNames($id: ID!) { classroomActivity(id: $id) { studentNames { activitySessionUid name } sessions { uid } } }`,
      ),
      { id: String(ids.classroomActivity) },
      tokens.owner,
    );
    expect(answer.data!.classroomActivity).toEqual({
      studentNames: [{ activitySessionUid: uids.sessions.ben, name: names.ben }],
      sessions: [{ uid: uids.sessions.ben }],
    });
    expect((await sessionRows()).map((session) => session.id)).toEqual([ids.sessions.ben, ids.sessions.hidden]);
    expect(await prisma().activitySession.count({ where: { id: ids.sessions.other } })).toBe(1);
  });

  it('deletes every visible session when no concept result is sent (the input’s defaults: no results, no follow-up)', async () => {
    const payload = await finished({});
    expect(payload.followUpUrl).toBe(DEFAULT_APP_URL);
    expect((await lesson()).sessions).toEqual([]);
    expect((await sessionRows()).map((session) => session.id)).toEqual([ids.sessions.hidden]);
  });

  it('keeps a session whose results were saved by an earlier run, even when this run sends none for it', async () => {
    await finished({ conceptResults: twoResults() });
    await finished({ conceptResults: [result(uids.sessions.ben, uids.concepts.parallel, 5)] });
    expect((await lesson()).sessions.map((session) => session.uid).sort()).toEqual([uids.sessions.ben, uids.sessions.chloe].sort());
  });

  it('a session deleted by an earlier run is unknown to later ones (BAD_USER_INPUT naming it)', async () => {
    await finished({ conceptResults: [result(uids.sessions.ben)] });
    await expectBadUserInput({ conceptResults: [result(uids.sessions.dev)] }, ['conceptResults[0].activitySessionUid']);
  });
});

describe('rule 5: the Complete Customized Lesson milestone', () => {
  it('is granted, creating the milestone record, when an edition id is given', async () => {
    expect(await prisma().milestone.count()).toBe(0);
    await finished({ editionId: 'edition-1', conceptResults: twoResults() });
    expect(await milestonesOf(tokens.owner)).toEqual([COMPLETE]);
    expect(await prisma().milestone.count({ where: { name: COMPLETE } })).toBe(1);
  });

  it('is granted when the classroom activity already has an edition id and none is given, and only once', async () => {
    await gateway.reset(withStoredEdition());
    await finished({ conceptResults: twoResults() });
    expect(await milestonesOf(tokens.owner)).toEqual([COMPLETE]);
    await finished({ editionId: 'edition-new', conceptResults: twoResults() });
    expect(await milestonesOf(tokens.owner)).toEqual([COMPLETE]);
  });

  it('is granted when the edition id is given only on concept results: the first one counts, and is not stored in the result', async () => {
    const payload = await finished({
      conceptResults: [
        result(uids.sessions.ben, uids.concepts.parallel, 1),
        { ...result(uids.sessions.ben, uids.concepts.parallel, 2), editionId: 'edition-first' },
        { ...result(uids.sessions.chloe, uids.concepts.parallel, 1), editionId: 'edition-second' },
      ],
    });
    expect(payload.classroomActivity.editionId).toBe('edition-first');
    expect(await milestonesOf(tokens.owner)).toEqual([COMPLETE]);
    expect((await lesson()).editionId).toBe('edition-first');
    for (const session of await sessionRows()) expect(Object.values(session.data as object)).toContain('edition-first');
    for (const row of await prisma().conceptResult.findMany()) expect(JSON.stringify(row.metadata)).not.toContain('edition-');
  });

  it('prefers the input’s edition id over those on concept results', async () => {
    await finished({ editionId: 'edition-top', conceptResults: [{ ...result(uids.sessions.ben), editionId: 'edition-on-result' }] });
    expect((await lesson()).editionId).toBe('edition-top');
  });

  it('is not granted when no edition id is stored or given (an explicit null is not given)', async () => {
    for (const input of [
      { conceptResults: twoResults() },
      { editionId: null, conceptResults: [{ ...result(uids.sessions.ben), editionId: null }] },
    ]) {
      await gateway.reset();
      const payload = await finished(input);
      expect(payload.classroomActivity.editionId).toBeNull();
      expect(await milestonesOf(tokens.owner)).toEqual([]);
      expect(await prisma().userMilestone.count()).toBe(0);
    }
  });

  it('is not granted twice to a teacher who already has it', async () => {
    const milestone = await prisma().milestone.create({ data: { name: COMPLETE } });
    await prisma().userMilestone.create({ data: { userId: ids.owner, milestoneId: milestone.id } });
    await finished({ editionId: 'edition-1', conceptResults: twoResults() });
    expect(await userMilestoneCount(ids.owner)).toBe(1);
    expect(await prisma().milestone.count()).toBe(1);
    expect(await milestonesOf(tokens.owner)).toEqual([COMPLETE]);
  });

  it('reuses the milestone record another teacher already earned', async () => {
    const milestone = await prisma().milestone.create({ data: { name: COMPLETE } });
    await prisma().userMilestone.create({ data: { userId: ids.otherTeacher, milestoneId: milestone.id } });
    await finished({ editionId: 'edition-1', conceptResults: twoResults() });
    expect(await prisma().milestone.count()).toBe(1);
    expect(await userMilestoneCount(ids.owner)).toBe(1);
    expect(await userMilestoneCount(ids.otherTeacher)).toBe(1);
  });
});

describe('rule 6: the follow-up', () => {
  it('creates a follow-up classroom activity like the lesson (classroom, unit, students, assignOnJoin), visible, unlocked and unpinned, and answers its URL', async () => {
    const payload = await finished({ followUp: true, editionId: 'edition-g', conceptResults: twoResults() });

    const created = await followUpClassroomActivities(gateway);
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
    expect(payload).toEqual({
      followUpUrl: followUpUrlFor(followUp.id),
      classroomActivity: { id: String(ids.classroomActivity), locked: true, pinned: false, completed: true, editionId: 'edition-g' },
      followUpClassroomActivity: {
        id: String(followUp.id),
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

    // It is a classroom activity like any other: its teacher can read it.
    const read = await gateway.graphql(
      graphql(`query FollowUpClassroom($id: ID!) { classroomActivity(id: $id) { classroom { name teacher { name } } } }`),
      { id: String(followUp.id) },
      tokens.owner,
    );
    expect(read.data).toEqual({ classroomActivity: { classroom: { name: names.classroom, teacher: { name: names.owner } } } });
  });

  it('reuses (and unlocks) the visible follow-up classroom activity of the same classroom and unit, keeping its students', async () => {
    await gateway.reset(
      fixtureWithRecords({
        classroomActivities: [
          {
            id: 150,
            classroomId: ids.classroom,
            activityId: ids.followUp,
            unitId: ids.unit,
            assignedStudentIds: [11],
            assignOnJoin: false,
            pinned: true,
            locked: true,
          },
        ],
      }),
    );
    const payload = await finished({ followUp: true, conceptResults: twoResults() });
    expect(payload.followUpUrl).toBe(followUpUrlFor(150));
    expect(payload.followUpClassroomActivity).toMatchObject({ id: '150', locked: false });
    const followUps = await followUpClassroomActivities(gateway);
    expect(followUps.map((ca) => ca.id)).toEqual([150]);
    expect(followUps[0]).toMatchObject({ locked: false, visible: true, assignedStudentIds: [11], assignOnJoin: false });
  });

  it('does not reuse a hidden follow-up, nor one of another unit or another classroom', async () => {
    await gateway.reset(
      fixtureWithRecords({
        units: [{ id: 2, name: 'Other unit' }],
        classroomActivities: [
          { id: 150, classroomId: ids.classroom, activityId: ids.followUp, unitId: ids.unit, visible: false },
          { id: 151, classroomId: ids.classroom, activityId: ids.followUp, unitId: 2 },
          { id: 152, classroomId: ids.classroom, activityId: ids.followUp },
          { id: 153, classroomId: ids.otherClassroom, activityId: ids.followUp, unitId: ids.unit },
        ],
      }),
    );
    const payload = await finished({ followUp: true, conceptResults: twoResults() });
    const followUps = await followUpClassroomActivities(gateway);
    expect(followUps.map((ca) => ca.id).slice(0, 4)).toEqual([150, 151, 152, 153]);
    expect(followUps).toHaveLength(5);
    const created = followUps[4]!;
    expect(created).toMatchObject({ classroomId: ids.classroom, unitId: ids.unit, visible: true, locked: false });
    expect(payload.followUpUrl).toBe(followUpUrlFor(created.id));
  });

  it('answers APP_URL, no follow-up classroom activity, and creates none when followUp is false or left out', async () => {
    for (const input of [{ followUp: false, conceptResults: twoResults() }, { conceptResults: twoResults() }]) {
      await gateway.reset();
      const payload = await finished(input);
      expect(payload.followUpUrl).toBe(DEFAULT_APP_URL);
      expect(payload.followUpClassroomActivity).toBeNull();
      expect(await followUpClassroomActivities(gateway)).toEqual([]);
    }
  });

  it('answers APP_URL and creates nothing when the activity has no follow-up activity', async () => {
    await gateway.reset(
      fixtureWithRecords({
        classroomActivities: [{ id: 102, classroomId: ids.classroom, activityId: ids.lonelyActivity, unitId: ids.unit }],
        activitySessions: [
          { id: 1100, uid: 'session-lonely-0000001', classroomActivityId: 102, userId: ids.students[0], state: 'started' },
        ],
      }),
    );
    const countBefore = await prisma().classroomActivity.count();
    const payload = await finished({ followUp: true, conceptResults: [result('session-lonely-0000001')] }, { id: 102 });
    expect(payload.followUpUrl).toBe(DEFAULT_APP_URL);
    expect(payload.followUpClassroomActivity).toBeNull();
    expect(await prisma().classroomActivity.count()).toBe(countBefore);
  });
});

describe('invalid input: BAD_USER_INPUT naming every offender, and nothing changes', () => {
  it('names empty strings by their camelCase path', async () => {
    const fields = await expectBadUserInput(
      {
        editionId: '',
        conceptResults: [
          result(uids.sessions.ben),
          { ...result(uids.sessions.ben), conceptUid: '' },
          { ...result(''), questionType: ' ', editionId: '' },
        ],
      },
      [
        'editionId',
        'conceptResults[1].conceptUid',
        'conceptResults[2].activitySessionUid',
        'conceptResults[2].questionType',
        'conceptResults[2].editionId',
      ],
    );
    expect(fields['conceptResults[1].conceptUid']!.join(' ')).toContain('""');
  });

  it('names every unknown concept, session of another classroom activity, hidden session and unknown session, quoting each value', async () => {
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
    // Nothing changed: no milestone, no follow-up (expectBadUserInput compared snapshots too).
    expect(await prisma().userMilestone.count()).toBe(0);
  });

  it('names uids with a space before or after together with the malformed fields (docs/contract.md, finish_lesson)', async () => {
    const fields = await expectBadUserInput(
      {
        conceptResults: [
          { ...result(uids.sessions.ben), questionType: '' },
          { ...result(` ${uids.sessions.chloe}`), conceptUid: `${uids.concepts.parallel}\t` },
        ],
      },
      ['conceptResults[0].questionType', 'conceptResults[1].activitySessionUid', 'conceptResults[1].conceptUid'],
    );
    expect(fields['conceptResults[1].activitySessionUid']!.join(' ')).toContain(`" ${uids.sessions.chloe}"`);
  });

  it('names an empty string and an unknown uid of the same input together', async () => {
    await expectBadUserInput(
      {
        conceptResults: [
          { ...result(uids.sessions.ben), questionType: '' },
          result(uids.sessions.chloe, 'no-such-concept'),
          result(uids.sessions.other),
        ],
      },
      ['conceptResults[0].questionType', 'conceptResults[1].conceptUid', 'conceptResults[2].activitySessionUid'],
    );
  });

  it('metadata.extra may not store a non-string under prompt, answer or directions (docs/contract.md, finish_lesson), all named at once', async () => {
    const withExtra = (uid: string, extra: Record<string, unknown>) => ({ ...result(uid), metadata: { ...result(uid).metadata, extra } });
    const fields = await expectBadUserInput(
      {
        conceptResults: [
          withExtra(uids.sessions.ben, { prompt: { html: '<p>x</p>' }, note: { kept: true } }),
          withExtra(uids.sessions.chloe, { answer: 42, directions: ['a', 'b'] }),
          withExtra(uids.sessions.ben, { prompt: 'a string is fine', answer: '' }),
        ],
      },
      ['conceptResults[0].metadata.extra.prompt', 'conceptResults[1].metadata.extra.answer', 'conceptResults[1].metadata.extra.directions'],
    );
    expect(fields['conceptResults[1].metadata.extra.answer']!.join(' ')).toContain('42');
  });

  it('metadata.extra: a string under a reserved key is stored, null is absent, and the field of that name wins', async () => {
    const metadata = { correct: 1, attemptNumber: 1, questionNumber: 1 };
    const conceptResult = (extra: Record<string, unknown>, known: Record<string, unknown> = {}) => ({
      activitySessionUid: uids.sessions.ben,
      conceptUid: uids.concepts.parallel,
      questionType: 'lessons-slide',
      metadata: { ...metadata, ...known, extra },
    });
    await finished({
      conceptResults: [
        conceptResult({ prompt: 'from extra', answer: null, note: null }),
        conceptResult({ prompt: 'loses' }, { prompt: 'wins' }),
      ],
    });
    const rows = await prisma().conceptResult.findMany({ orderBy: { id: 'asc' } });
    expect(rows.map((row) => row.metadata)).toEqual([
      { ...metadata, prompt: 'from extra', note: null },
      { ...metadata, prompt: 'wins' },
    ]);
  });

  it('refuses a variable of the wrong type (the schema does), and changes nothing', async () => {
    const before = await gateway.snapshot();
    for (const input of [
      { followUp: 'yes', conceptResults: twoResults() },
      { conceptResults: [{ ...result(uids.sessions.ben), metadata: { correct: 'yes', attemptNumber: 1, questionNumber: 1 } }] },
      { conceptResults: [{ ...result(uids.sessions.ben), metadata: { correct: 1, attemptNumber: 1.5, questionNumber: 1 } }] },
      {
        conceptResults: [
          {
            activitySessionUid: uids.sessions.ben,
            conceptUid: uids.concepts.parallel,
            metadata: { correct: 1, attemptNumber: 1, questionNumber: 1 },
          },
        ],
      },
    ]) {
      const answer = await finish(input);
      expect(errorCode(answer), JSON.stringify(input)).toBe('BAD_USER_INPUT');
      expect(answer.data?.finishLesson ?? null).toBeNull();
    }
    expect(await gateway.snapshot()).toBe(before);
  });
});

describe('size', () => {
  const compact = (index: number) => ({
    activitySessionUid: index % 2 === 0 ? uids.sessions.ben : uids.sessions.chloe,
    conceptUid: uids.concepts.parallel,
    questionType: 'q',
    metadata: { correct: 1, attemptNumber: 1, questionNumber: index },
  });

  it('refuses more than 10,000 concept results with PAYLOAD_TOO_LARGE, and changes nothing', async () => {
    const before = await gateway.snapshot();
    expect(
      errorCode(
        await finish({
          followUp: true,
          editionId: 'edition-big',
          conceptResults: Array.from({ length: 10_001 }, (_, index) => compact(index)),
        }),
      ),
    ).toBe('PAYLOAD_TOO_LARGE');
    expect(await gateway.snapshot()).toBe(before);
  });

  it('accepts exactly 10,000 concept results', async () => {
    await finished({ conceptResults: Array.from({ length: 10_000 }, (_, index) => compact(index)) });
    expect(await conceptResultCount()).toBe(10_000);
  });
});

describe('a retry of the same call', () => {
  it('is safe: the same answer, one follow-up, no duplicated result, one milestone, and the same state as after the first', async () => {
    const input = { followUp: true, editionId: 'edition-retry', conceptResults: twoResults() };
    const first = await finished(input);
    const afterFirst = await finishLessonState(gateway);

    const second = await finished(input);
    expect(second).toEqual(first);
    expect(await followUpClassroomActivities(gateway)).toHaveLength(1);
    expect(await conceptResultCount()).toBe(2);
    expect(await userMilestoneCount(ids.owner)).toBe(1);
    expect(await milestonesOf(tokens.owner)).toEqual([COMPLETE]);
    expect(await finishLessonState(gateway)).toEqual(afterFirst);
  });
});

describe('statements: as many whatever the input', () => {
  /** Statements sent for one finishLesson call on a freshly loaded `data` (asking for the URL alone, as REST does). */
  async function statementsFor(data: unknown, input: Input): Promise<number> {
    await gateway.reset(data);
    const before = gateway.statements();
    finishLessonPayload(await finishLesson(gateway, input, {}, FINISH_LESSON_URL));
    return gateway.statements() - before;
  }

  const sessionUids = [uids.sessions.ben, uids.sessions.chloe, uids.sessions.dev];
  const results = (count: number) =>
    Array.from({ length: count }, (_, index) =>
      result(sessionUids[index % 3]!, index % 2 === 0 ? uids.concepts.parallel : uids.concepts.compound, index + 1),
    );

  it('the same for 1 and for 500 concept results', async () => {
    const one = await statementsFor(fixture(), { followUp: true, editionId: 'e', conceptResults: results(1) });
    const many = await statementsFor(fixture(), { followUp: true, editionId: 'e', conceptResults: results(500) });
    console.info(`finishLesson statements: 1 result → ${one}, 500 results → ${many}`);
    expect(await conceptResultCount()).toBe(500);
    expect(many).toBe(one);
    // The token with its user, the classroom activity with the viewer's membership; then, in the
    // transaction: lock-and-update the classroom activity, look the uids up, finish the sessions,
    // insert the results, delete the absent, grant the milestone, lock the classroom's follow-up (two
    // lessons may share it), find and create it, store the lesson's event and notify it (one statement), COMMIT.
    expect(one).toBe(13);
  });

  /** The fixture with `count` visible sessions (one student each) on the lesson, and a hidden one. */
  function withSessions(count: number) {
    return fixtureEdited((data) => {
      data.activitySessions = data.activitySessions.filter((session) => session.classroomActivityId !== ids.classroomActivity);
      for (let index = 0; index < count; index += 1) {
        data.users.push({ id: 1000 + index, name: `Student ${index}`, role: 'student' } as never);
        data.activitySessions.push({
          id: 5000 + index,
          uid: `session-many-${String(index).padStart(6, '0')}`,
          classroomActivityId: ids.classroomActivity,
          userId: 1000 + index,
          state: 'started',
        } as never);
      }
      data.activitySessions.push({
        id: 6000,
        uid: 'session-many-hidden',
        classroomActivityId: ids.classroomActivity,
        userId: ids.students[3],
        state: 'started',
        visible: false,
      } as never);
    });
  }
  /** One result for all but the last session (so one session is deleted as absent). */
  const resultsFor = (count: number) =>
    Array.from({ length: count - 1 }, (_, index) => result(`session-many-${String(index).padStart(6, '0')}`, uids.concepts.parallel, 1));

  it('the same for 2 and for 40 sessions', async () => {
    const two = await statementsFor(withSessions(2), { followUp: true, editionId: 'e', conceptResults: resultsFor(2) });
    const forty = await statementsFor(withSessions(40), { followUp: true, editionId: 'e', conceptResults: resultsFor(40) });
    console.info(`finishLesson statements: 2 sessions → ${two}, 40 sessions → ${forty}`);
    expect(await prisma().activitySession.count({ where: { classroomActivityId: ids.classroomActivity } })).toBe(40);
    expect(forty).toBe(two);
  });
});

describe('with APP_URL set', () => {
  const custom = gatewayForTests({ APP_URL: 'https://app.example.org/' });

  it('answers that APP_URL (without its trailing slash) when there is no follow-up', async () => {
    expect(finishLessonPayload(await finishLesson(custom, { conceptResults: twoResults() })).followUpUrl).toBe('https://app.example.org');
  });

  it('builds the follow-up’s URL on it', async () => {
    const payload = finishLessonPayload(await finishLesson(custom, { followUp: true, conceptResults: twoResults() }));
    const [followUp] = await followUpClassroomActivities(custom);
    expect(payload.followUpUrl).toBe(followUpUrlFor(followUp!.id, 'https://app.example.org'));
  });
});
