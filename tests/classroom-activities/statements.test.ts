import { describe, expect, it } from 'vitest';
import { fixture, ids, tokens } from '../kit/fixture.ts';
import { gatewayForTests } from '../kit/gateway.ts';
import { NESTED_CLASSROOM_ACTIVITY_QUERY as NESTED } from '../kit/graphql.ts';
import { classroomActivityPath } from '../kit/rest.ts';

// No N+1: the number of SQL statements the lesson screen's reads cost does not grow with the number of
// sessions they answer (per-request DataLoaders batch the nested lookups, relation reads are joins), and
// is an exact, small number (issue 4: at most 4). A page of activities: tests/activities/; finish_lesson:
// finish-lesson.test.ts.

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

async function cost(query: string, variables: Record<string, unknown>, token?: string) {
  const before = gateway.statements();
  const answer = await gateway.graphql(query, variables, token);
  const statements = gateway.statements() - before;
  expect(answer.errors).toBeUndefined();
  return { answer, statements };
}

describe('statements per read of a classroom activity', () => {
  it('the nested classroom activity query costs the same with 2 sessions as with 40', async () => {
    await gateway.reset(classWith(2));
    const small = await cost(NESTED, { id: String(ids.classroomActivity) }, tokens.owner);
    expect(small.answer.data.classroomActivity.sessions).toHaveLength(2);
    expect(small.answer.data.classroomActivity.sessions[1].conceptResults).toHaveLength(2);

    await gateway.reset(classWith(40));
    const large = await cost(NESTED, { id: String(ids.classroomActivity) }, tokens.owner);
    expect(large.answer.data.classroomActivity.sessions).toHaveLength(40);
    expect(large.answer.data.classroomActivity.studentNames).toHaveLength(40);
    expect(large.answer.data.classroomActivity.sessions[39].conceptResults).toHaveLength(2);

    console.log(`classroomActivity nested query: ${small.statements} statements with 2 sessions, ${large.statements} with 40`);
    expect(large.statements).toBe(small.statements);
    // The token with its user; the classroom activity with its classroom, owner, unit and the viewer's
    // membership; the sessions with their students; the concept results with their concepts.
    expect(large.statements).toBe(4);
  });

  it('REST student_names costs 3 statements with 1 session and with 100', async () => {
    const statementsFor = async (sessions: number) => {
      await gateway.reset(classWith(sessions));
      const before = gateway.statements();
      const answer = await gateway.rest('GET', classroomActivityPath('student_names'), { token: tokens.owner });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body)).toHaveLength(sessions);
      return gateway.statements() - before;
    };
    // The token with its user; the classroom activity with the viewer's membership; the sessions with their students.
    expect(await statementsFor(1)).toBe(3);
    expect(await statementsFor(100)).toBe(3);
  });
});
