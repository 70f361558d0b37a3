import { describe, expect, it } from 'vitest';
import { fixture, ids, tokens } from '../../kit/fixture.ts';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { DocumentNode } from 'graphql';
import { documentText, gatewayForTests, type GraphQLAnswer } from '../../kit/gateway.ts';
import { NESTED_CLASSROOM_ACTIVITY_QUERY as NESTED } from '../../kit/graphql.ts';
import { graphql } from '../../kit/gql/index.ts';
import { classroomActivityPath } from '../../kit/rest.ts';

// No N+1: the number of SQL statements the lesson screen's reads cost does not grow with the number of
// sessions they answer, and is an exact, small number: the classroom activity with everything the
// operation selects below it is one statement (src/modules/classroom-activities/view-statement.ts), plus the token
// when the instance has not verified it a moment ago (src/auth/token-cache.ts). A page of activities:
// tests/integration/activities/; finish_lesson: finish-lesson.test.ts.

const gateway = gatewayForTests();

/** The fixture, with `count` visible sessions (each its own student, each with two concept results) on the classroom activity. */
function classWith(count: number) {
  const data = fixture();
  const students = Array.from({ length: count }, (_, i) => ({ id: 1000 + i, name: `Student ${i}`, role: 'student' }));
  return {
    ...data,
    users: [...data.users, ...students],
    activitySessions: [
      ...students.map((student, i) => ({
        id: 5000 + i,
        uid: `session-${String(i).padStart(16, '0')}`,
        classroomActivityId: ids.classroomActivity,
        userId: student.id,
        state: 'started',
      })),
      // A hidden one and one elsewhere, as in real life.
      ...data.activitySessions.filter((session) => session.id === ids.sessions.hidden || session.id === ids.sessions.other),
    ],
    conceptResults: students.flatMap((_, i) =>
      [ids.concepts.parallel, ids.concepts.compound].map((conceptId, q) => ({
        activitySessionId: 5000 + i,
        conceptId,
        questionType: 'lessons-slide',
        metadata: { correct: 1, attemptNumber: 1, questionNumber: q + 1 },
      })),
    ),
  };
}

type Cost<Answer> = { answer: Answer; statements: number };

/** The answer to `query` and the statements it cost: typed for a typed document, not for one built at run time (text). */
function cost<Result, Variables extends Record<string, unknown>>(
  query: TypedDocumentNode<Result, Variables>,
  variables: Variables,
  token?: string,
): Promise<Cost<GraphQLAnswer<Result>>>;
function cost(query: string, variables: Record<string, unknown>, token?: string): Promise<Cost<GraphQLAnswer>>;
async function cost(query: DocumentNode | string, variables: Record<string, unknown>, token?: string): Promise<Cost<GraphQLAnswer>> {
  const before = gateway.statements();
  const answer = await gateway.graphql(documentText(query), variables, token);
  const statements = gateway.statements() - before;
  expect(answer.errors).toBeUndefined();
  return { answer, statements };
}

/** The statements of a request with a token just read (after a reset), then of the same request again. */
async function coldAndWarm<Result, Variables extends Record<string, unknown>>(
  query: TypedDocumentNode<Result, Variables>,
  variables: Variables,
  token: string,
) {
  const cold = await cost(query, variables, token);
  const warm = await cost(query, variables, token);
  expect(warm.answer).toEqual(cold.answer);
  return { cold, warm };
}

describe('statements per read of a classroom activity', () => {
  it('the nested classroom activity query is one statement (two with the token) with 2 sessions as with 40', async () => {
    await gateway.reset(classWith(2));
    const small = await coldAndWarm(NESTED, { id: String(ids.classroomActivity) }, tokens.owner);
    expect(small.cold.answer.data!.classroomActivity!.sessions).toHaveLength(2);
    expect(small.cold.answer.data!.classroomActivity!.sessions[1]!.conceptResults).toHaveLength(2);

    await gateway.reset(classWith(40));
    const large = await coldAndWarm(NESTED, { id: String(ids.classroomActivity) }, tokens.owner);
    expect(large.cold.answer.data!.classroomActivity!.sessions).toHaveLength(40);
    expect(large.cold.answer.data!.classroomActivity!.studentNames).toHaveLength(40);
    expect(large.cold.answer.data!.classroomActivity!.sessions[39]!.conceptResults).toHaveLength(2);

    console.log(`classroomActivity nested query: ${small.cold.statements} statements with 2 sessions, ${large.cold.statements} with 40`);
    // The token with its user; the classroom activity with its classroom, owner, unit, the viewer's
    // membership, the sessions with their students and their concept results with their concepts.
    expect(large.cold.statements).toBe(2);
    expect(small.cold.statements).toBe(2);
    // The token verified a moment ago: the classroom activity alone.
    expect(large.warm.statements).toBe(1);
    expect(small.warm.statements).toBe(1);
  });

  it('the same through fragments and aliases, and what the query does not select is not read', async () => {
    await gateway.reset(classWith(3));
    const fragments = graphql(`query LessonThroughFragments($id: ID!) {
      lesson: classroomActivity(id: $id) { ...StatementsLesson }
    }
    fragment StatementsLesson on ClassroomActivity { ... on ClassroomActivity { people: sessions { ...StatementsSession } } classroom { name } }
    fragment StatementsSession on ActivitySession { uid student { name } results: conceptResults { concept { uid } } }`);
    const { warm } = await coldAndWarm(fragments, { id: String(ids.classroomActivity) }, tokens.owner);
    expect(warm.answer.data!.lesson!.people).toHaveLength(3);
    expect(warm.answer.data!.lesson!.people[2]!.results).toHaveLength(2);
    expect(warm.statements).toBe(1);

    // The activity is not part of that statement: its own loader reads it, one statement more.
    const withActivity = await cost(
      graphql(`query ClassroomActivityWithActivity($id: ID!) { classroomActivity(id: $id) { activity { uid } sessions { uid } } }`),
      {
        id: String(ids.classroomActivity),
      },
      tokens.owner,
    );
    expect(withActivity.answer.data!.classroomActivity!.sessions).toHaveLength(3);
    expect(withActivity.statements).toBe(2);
  });

  it('two aliases selecting different fields of the same sessions each get all they select, one statement each', async () => {
    await gateway.reset(classWith(3));
    const id = String(ids.classroomActivity);
    // The statement builds only the selected keys (src/modules/classroom-activities/view-plan.ts, viewPlanOf): the
    // first alias's narrow sessions must not answer the second's wider selection, in either order.
    const narrow = `names: classroomActivity(id: $id) { studentNames { name } sessions { uid conceptResults { concept { uid } } } }`;
    const wide = `full: classroomActivity(id: $id) {
      unit { name } classroom { teacher { name } }
      sessions { uid state percentage completedAt isFinalScore student { id ...Who } conceptResults { questionType metadata concept { uid name } } }
    }`;
    const query = (fields: string) => `query($id: ID!) { ${fields} } fragment Who on User { name role }`;
    const first = await cost(query(narrow + wide), { id }, tokens.owner);
    const second = await cost(query(wide + narrow), { id }, tokens.owner);
    for (const { answer, statements } of [first, second]) {
      type Full = { uid: string; conceptResults: { concept: { uid: string } }[] };
      expect(answer.data.names.sessions).toEqual(
        answer.data.full.sessions.map(({ uid, conceptResults }: Full) => ({
          uid,
          conceptResults: conceptResults.map(({ concept }) => ({ concept: { uid: concept.uid } })),
        })),
      );
      expect(answer.data.full.sessions).toHaveLength(3);
      expect(answer.data.full.sessions[2]).toEqual({
        uid: 'session-0000000000000002',
        state: 'STARTED',
        percentage: null,
        completedAt: null,
        isFinalScore: false,
        student: { id: '1002', name: 'Student 2', role: 'STUDENT' },
        conceptResults: [1, 2].map((questionNumber) => ({
          questionType: 'lessons-slide',
          metadata: { correct: 1, attemptNumber: 1, questionNumber },
          concept: { uid: expect.any(String), name: expect.any(String) },
        })),
      });
      expect(answer.data.full.classroom.teacher.name).toEqual(expect.any(String));
      expect(answer.data.names.studentNames.map(({ name }: { name: string }) => name)).toEqual(['Student 0', 'Student 1', 'Student 2']);
      expect(statements).toBeLessThanOrEqual(3);
    }
  });

  it('REST student_names costs 2 statements (1 with the token verified a moment ago) with 1 session and with 100', async () => {
    const statementsFor = async (sessions: number) => {
      await gateway.reset(classWith(sessions));
      const counts = [];
      for (let i = 0; i < 2; i += 1) {
        const before = gateway.statements();
        const answer = await gateway.rest('GET', classroomActivityPath('student_names'), { token: tokens.owner });
        expect(answer.status).toBe(200);
        expect(Object.keys(answer.body)).toHaveLength(sessions);
        counts.push(gateway.statements() - before);
      }
      return counts;
    };
    // The token with its user; the classroom activity with the viewer's membership and the sessions with their students.
    expect(await statementsFor(1)).toEqual([2, 1]);
    expect(await statementsFor(100)).toEqual([2, 1]);
  });
});

describe('statements per change of a live lesson: its event is stored and sent in one', () => {
  it('launchLesson and unpinAndLock: the same count as when the event was only sent, one event row each', async () => {
    const launch = graphql(`mutation LaunchCounted($id: ID!) { launchLesson(id: $id) { id lessonEventCursor } }`);
    const lock = graphql(`mutation LockCounted($id: ID!) { unpinAndLock(id: $id) { id lessonEventCursor } }`);
    const id = String(ids.classroomActivity);
    await cost(launch, { id }, tokens.owner); // the token, verified once
    const launched = await cost(launch, { id }, tokens.owner);
    const locked = await cost(lock, { id }, tokens.owner);
    console.log(`launchLesson: ${launched.statements} statements, unpinAndLock: ${locked.statements}`);
    // The read before the change; then the classroom's lock, unpin the others, the update (which moves the
    // event's position), the students' sessions, the event (stored and notified: the one statement that
    // only notified before events were stored), COMMIT.
    expect(launched.statements).toBe(7);
    // The read before the change; then the update, the event, COMMIT.
    expect(locked.statements).toBe(4);
    expect(launched.answer.data!.launchLesson.lessonEventCursor).toBe(`${ids.classroomActivity}-0000000002`);
    expect(locked.answer.data!.unpinAndLock.lessonEventCursor).toBe(`${ids.classroomActivity}-0000000003`);
    expect(await gateway.database.prisma.lessonEvent.count()).toBe(3);
  });
});
