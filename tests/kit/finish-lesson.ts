import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { expect } from 'vitest';
import { documentText, type Gateway, type GraphQLAnswer } from './gateway.ts';
import { ids, tokens } from './fixture.ts';
import { graphql } from './gql/index.ts';
import type { FinishLessonMutation, FinishLessonMutationVariables } from './gql/graphql.ts';

// finish_lesson as the tests drive it (docs/contract.md, finish_lesson): the GraphQL mutation, the URL it
// answers, and what it leaves in the database.

/** GraphQL `finishLesson`, asking for the whole payload. */
export const FINISH_LESSON = graphql(`
  mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {
    finishLesson(id: $id, input: $input) {
      followUpUrl
      classroomActivity { id locked pinned completed editionId }
      followUpClassroomActivity {
        id locked pinned completed assignedStudentIds assignOnJoin
        activity { id } classroom { id } unit { id }
      }
    }
  }
`);

/** GraphQL `finishLesson`, asking for the URL alone, as REST does. */
export const FINISH_LESSON_URL = graphql(`
  mutation FinishLessonUrl($id: ID!, $input: FinishLessonInput!) {
    finishLesson(id: $id, input: $input) { followUpUrl }
  }
`);

/** FINISH_LESSON's text, for the tests that send it themselves. */
export const FINISH_LESSON_MUTATION = documentText(FINISH_LESSON);

export type FinishLessonOptions = { id?: string | number; token?: string | null };

/**
 * Sends finishLesson as the owner (`token: null`: with no token), asking for the whole payload (FINISH_LESSON)
 * unless `document` asks for less. `input` is sent as it is, valid or not; the answer has the document's type.
 */
export function finishLesson(
  gateway: Gateway,
  input: Record<string, unknown>,
  options?: FinishLessonOptions,
): Promise<GraphQLAnswer<FinishLessonMutation>>;
export function finishLesson<Result>(
  gateway: Gateway,
  input: Record<string, unknown>,
  options: FinishLessonOptions,
  document: TypedDocumentNode<Result, FinishLessonMutationVariables>,
): Promise<GraphQLAnswer<Result>>;
export function finishLesson(
  gateway: Gateway,
  input: Record<string, unknown>,
  options: FinishLessonOptions = {},
  document: TypedDocumentNode<unknown, FinishLessonMutationVariables> = FINISH_LESSON,
): Promise<GraphQLAnswer> {
  const token = options.token === null ? undefined : (options.token ?? tokens.owner);
  return gateway.graphql(documentText(document), { id: String(options.id ?? ids.classroomActivity), input }, token);
}

/** The payload of a finishLesson answer that must have succeeded. */
export function finishLessonPayload<Payload>(answer: GraphQLAnswer<{ finishLesson: Payload }>): Payload {
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  expect(answer.status).toBe(200);
  return answer.data!.finishLesson;
}

/** APP_URL when it is not set. */
export const DEFAULT_APP_URL = 'http://localhost:3000';
export const COMPLETE_CUSTOMIZED_LESSON = 'Complete Customized Lesson';
export const PUBLISH_CUSTOMIZED_LESSON = 'Publish Customized Lesson';

/** The follow_up_url that names follow-up classroom activity `id`. */
export const followUpUrlFor = (id: number | string, appUrl = DEFAULT_APP_URL) =>
  `${appUrl}/teachers/classroom_activities/${id}/activity_from_classroom_activity`;

/** The classroom activities of the follow-up activity, oldest first (rows, hidden ones too). */
export const followUpClassroomActivities = (gateway: Gateway) =>
  gateway.database.prisma.classroomActivity.findMany({ where: { activityId: ids.followUp }, orderBy: { id: 'asc' } });

/** What finish_lesson leaves, without the ids and clocks that differ between runs. */
export async function finishLessonState(gateway: Gateway) {
  const db = gateway.database.prisma;
  const classroomActivities = await db.classroomActivity.findMany({ orderBy: [{ activityId: 'asc' }, { id: 'asc' }] });
  const sessions = await db.activitySession.findMany({ orderBy: { id: 'asc' } });
  const results = await db.conceptResult.findMany({ include: { concept: true } });
  const userMilestones = await db.userMilestone.findMany({ include: { milestone: true } });
  return {
    classroomActivities: classroomActivities.map(({ createdAt: _c, updatedAt: _u, id, ...rest }) => ({
      ...rest,
      id: id < 200 || id === ids.otherClassroomActivity ? id : 'new',
    })),
    sessions: sessions.map(({ createdAt: _c, updatedAt: _u, completedAt, ...rest }) => ({ ...rest, completed: completedAt !== null })),
    results: results
      .map((row) => ({ session: row.activitySessionId, concept: row.concept.uid, questionType: row.questionType, metadata: row.metadata }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    userMilestones: userMilestones
      .map((row) => ({ userId: row.userId, name: row.milestone.name }))
      .sort((a, b) => a.userId - b.userId || a.name.localeCompare(b.name)),
  };
}

export type FinishLessonState = Awaited<ReturnType<typeof finishLessonState>>;
