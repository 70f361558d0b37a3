import { createHash } from 'node:crypto';
import type { ResultOf } from '@graphql-typed-document-node/core';
import { expect } from 'vitest';
import type { Gateway, GraphQLAnswer } from './gateway.ts';
import { ids, tokens } from './fixture.ts';
import { graphql } from './gql/index.ts';

// Reading the world back through GraphQL, as a client would, and the error codes of an answer.

/** The `extensions.code` of each error of an answer, in order (empty when it has none). */
export function errorCodes(answer: Pick<GraphQLAnswer, 'errors'>): (string | undefined)[] {
  return (answer.errors ?? []).map((error) => error.extensions?.code);
}

/** A token's SHA-256 in hex, as access_tokens.token_hash holds it. */
export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The answer to `{ viewer }` with `token`, and the SQL statements it cost. */
export async function viewerWith(gateway: Gateway, token: string) {
  const before = gateway.statements();
  const answer = await gateway.graphql(graphql(`query ViewerWith { viewer { id name role } }`), {}, token);
  return { answer, statements: gateway.statements() - before };
}

/** Asks `{ viewer }` twice with `token`: the second time, the instance remembers it and reads no statement. */
export async function expectCached(gateway: Gateway, token: string) {
  await viewerWith(gateway, token);
  const again = await viewerWith(gateway, token);
  expect(again.answer.errors).toBeUndefined();
  expect(again.statements).toBe(0);
}

/** The nested classroom-activity query the lesson screen makes. */
export const NESTED_CLASSROOM_ACTIVITY_QUERY = graphql(`query NestedClassroomActivity($id: ID!) {
  classroomActivity(id: $id) {
    classroom { teacher { name } }
    unit { name }
    studentNames { activitySessionUid name }
    sessions { uid state student { name } conceptResults { concept { uid } questionType metadata } }
  }
}`);

const CLASSROOM_ACTIVITY_STATE = graphql(`
  query ClassroomActivityState($id: ID!) {
    classroomActivity(id: $id) {
      locked pinned completed editionId
      sessions { uid state percentage completedAt isFinalScore conceptResults { concept { uid } questionType metadata } }
    }
  }
`);

/** A classroom activity as readClassroomActivity reads it: the visible sessions only. */
export type ClassroomActivityState = NonNullable<ResultOf<typeof CLASSROOM_ACTIVITY_STATE>['classroomActivity']>;
export type SessionState = ClassroomActivityState['sessions'][number];

/** What a teacher of the classroom sees of a classroom activity through GraphQL (null when unknown or hidden). */
export async function readClassroomActivity(
  gateway: Gateway,
  id: number = ids.classroomActivity,
  token: string = tokens.owner,
): Promise<ClassroomActivityState | null> {
  const answer = await gateway.graphql(CLASSROOM_ACTIVITY_STATE, { id: String(id) }, token);
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  return answer.data!.classroomActivity;
}

/** The names of the milestones and objectives the token's user sees as theirs. */
export async function viewerAchievements(
  gateway: Gateway,
  token: string = tokens.owner,
): Promise<{ milestones: string[]; objectives: string[] }> {
  const answer = await gateway.graphql(
    graphql(`query ViewerAchievements { viewer { milestones { name } objectives { name } } }`),
    {},
    token,
  );
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  const names = (list: { name: string }[]) => list.map((item) => item.name);
  const viewer = answer.data!.viewer!;
  return { milestones: names(viewer.milestones), objectives: names(viewer.objectives) };
}

/** The names of the milestones the token's user sees as theirs. */
export const viewerMilestones = async (gateway: Gateway, token: string = tokens.owner): Promise<string[]> =>
  (await viewerAchievements(gateway, token)).milestones;
