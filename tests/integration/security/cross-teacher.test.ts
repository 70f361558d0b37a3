// A signed-in user reaching for a classroom activity of a classroom they do not teach, through every
// REST route and every GraphQL path to it, gets FORBIDDEN (403) and nothing of it: no data, no names,
// no uids in the answer, and no change in the database. Activities, which anyone may read, lead nowhere
// near classroom activities: proven on the schema itself by introspection.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIntrospectionQuery, type IntrospectionQuery, type IntrospectionTypeRef } from 'graphql';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { ids, legacyResult, names, tokens, uids } from '../../kit/fixture.ts';
import { basicAuth, classroomActivityPath, forbiddenBody, type ClassroomActivityRoute } from '../../kit/rest.ts';
import { graphql } from '../../kit/gql/index.ts';

let gateway: Gateway;
let before: string;
let introspection: IntrospectionQuery;
beforeAll(async () => {
  // PLAYGROUND=1 turns introspection on, for the schema proofs below; it changes no permission.
  gateway = await startGateway({ PLAYGROUND: '1' });
  await gateway.reset();
  before = await gateway.snapshot();
  const answer = await gateway.graphql(getIntrospectionQuery());
  expect(answer.errors).toBeUndefined();
  introspection = answer.data as IntrospectionQuery;
});
afterAll(() => gateway?.close());

/** What classroom activity 100 (Ada's Period 1) and 200 (Hugo's Period 9) would give away. */
const secretsOf: Record<number, string[]> = {
  [ids.classroomActivity]: [
    names.classroom,
    names.owner,
    'Grace Lee',
    names.ben,
    names.chloe,
    names.dev,
    'Eve Hidden',
    'Sentence structure',
    ...Object.values(uids.sessions).filter((uid) => uid !== uids.sessions.other),
  ],
  [ids.otherClassroomActivity]: ['Period 9', 'Hugo Stone', names.ben, uids.sessions.other],
};

const intruders = [
  { who: 'a teacher of another classroom', token: tokens.otherTeacher, target: ids.classroomActivity },
  { who: 'the owner of another classroom', token: tokens.owner, target: ids.otherClassroomActivity },
  { who: 'a co-teacher of another classroom', token: tokens.coteacher, target: ids.otherClassroomActivity },
  { who: 'a student', token: tokens.student, target: ids.classroomActivity },
  { who: 'staff', token: tokens.staff, target: ids.otherClassroomActivity },
] as const;

function expectNothingOf(target: number, text: string) {
  for (const secret of secretsOf[target]!) expect(text, `leaks ${secret}`).not.toContain(secret);
}

describe.each(intruders)('$who', ({ token, target }) => {
  const path = (route: ClassroomActivityRoute) => classroomActivityPath(route, target);
  const owned = target === ids.classroomActivity ? uids.sessions.ben : uids.sessions.other;

  it('gets 403 and nothing else from every REST route, in every body encoding', async () => {
    const attempts = [
      () => gateway.rest('GET', path('student_names'), { token }),
      () => gateway.rest('GET', path('teacher_and_classroom_name'), { token }),
      () => gateway.rest('PUT', path('unpin_and_lock_activity'), { token }),
      () => gateway.rest('PUT', path('finish_lesson'), { token }),
      () =>
        gateway.rest('PUT', path('finish_lesson'), {
          token,
          body: { follow_up: true, edition_id: 'stolen', concept_results: [legacyResult(owned)] },
        }),
      () => gateway.rest('PUT', path('finish_lesson'), { token, body: { concept_results: 'garbage' } }),
      () =>
        gateway.rest('PUT', path('finish_lesson'), {
          token,
          payload: `json=${encodeURIComponent(JSON.stringify({ follow_up: true }))}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      () => gateway.rest('PUT', path('finish_lesson'), { token, payload: 'not json', headers: { 'content-type': 'application/json' } }),
      () => gateway.rest('GET', path('student_names'), { headers: basicAuth(token) }),
    ];
    for (const attempt of attempts) {
      const answer = await attempt();
      expect(answer.status, answer.text).toBe(403);
      expect(answer.body).toEqual(forbiddenBody);
      expectNothingOf(target, answer.text);
    }
    expect(await gateway.snapshot()).toBe(before);
  });

  const everyField = `id activity { id uid name } classroom { id name teacher { id name role } } unit { id name } dueDate assignedStudentIds
    assignOnJoin locked pinned completed editionId studentNames { activitySessionUid name }
    sessions { uid state percentage completedAt isFinalScore student { id name role } conceptResults { concept { uid name } questionType metadata } }`;
  const oneByOne = [
    'id',
    'activity { id }',
    'classroom { name }',
    'classroom { teacher { name } }',
    'unit { name }',
    'assignedStudentIds',
    'locked',
    'editionId',
    'studentNames { activitySessionUid name }',
    'sessions { uid }',
    'sessions { student { name } }',
    'sessions { conceptResults { questionType metadata } }',
  ];

  it('gets FORBIDDEN and no data from classroomActivity, with every nested field and each one alone', async () => {
    for (const selection of [everyField, ...oneByOne]) {
      const answer = await gateway.graphql(
        `query ($id: ID!) { classroomActivity(id: $id) { ${selection} } }`,
        { id: String(target) },
        token,
      );
      expect(
        answer.errors?.map((error) => error.extensions?.code),
        selection,
      ).toEqual(['FORBIDDEN']);
      expect(answer.data?.classroomActivity ?? null).toBeNull();
      expectNothingOf(target, JSON.stringify(answer));
    }
  });

  it('gets FORBIDDEN from finishLesson and unpinAndLock, and 403 from their REST routes, whatever the payload asks for; nothing changes', async () => {
    const input = {
      followUp: true,
      editionId: 'stolen',
      conceptResults: [
        {
          activitySessionUid: owned,
          conceptUid: uids.concepts.parallel,
          questionType: 'q',
          metadata: { correct: 1, attemptNumber: 1, questionNumber: 1 },
        },
      ],
    };
    const mutations: [string, Record<string, unknown>][] = [
      [
        `mutation ($id: ID!, $input: FinishLessonInput!) { finishLesson(id: $id, input: $input) { followUpUrl classroomActivity { ${everyField} } followUpClassroomActivity { ${everyField} } } }`,
        { input },
      ],
      [`mutation ($id: ID!) { finishLesson(id: $id, input: {}) { followUpUrl } }`, {}],
      [`mutation ($id: ID!) { unpinAndLock(id: $id) { ${everyField} } }`, {}],
    ];
    for (const [query, variables] of mutations) {
      const answer = await gateway.graphql(query, { id: String(target), ...variables }, token);
      expect(
        answer.errors?.map((error) => error.extensions?.code),
        query,
      ).toEqual(['FORBIDDEN']);
      expect(answer.data ?? null).toBeNull();
      expectNothingOf(target, JSON.stringify(answer));
    }
    for (const path of ['finish_lesson', 'unpin_and_lock_activity']) {
      const answer = await gateway.rest('PUT', `/api/v1/classroom_activities/${target}/${path}`, {
        token,
        body: { follow_up: true, concept_results: [legacyResult(owned)] },
      });
      expect(answer.status, path).toBe(403);
      expectNothingOf(target, answer.text);
    }
    expect(await gateway.snapshot()).toBe(before);
  });

  it('gets only its own share when the forbidden read is batched with allowed ones in one document', async () => {
    const answer = await gateway.graphql(
      `query ($id: ID!) { viewer { id } stolen: classroomActivity(id: $id) { ${everyField} } activity(id: "${uids.lesson}") { id name followUpActivity { id } } }`,
      { id: String(target) },
      token,
    );
    expect(answer.errors?.map((error) => [error.extensions?.code, error.path])).toEqual([['FORBIDDEN', ['stolen']]]);
    expect(answer.data.stolen).toBeNull();
    expect(answer.data.activity.id).toBe(String(ids.lesson));
    expectNothingOf(target, JSON.stringify(answer));
  });
});

describe('no way around the check', () => {
  it('a classroom activity id spelt differently (padding, signs, exponents, huge) is still FORBIDDEN or NOT_FOUND, never data', async () => {
    for (const id of [
      ` ${ids.classroomActivity}`,
      `+${ids.classroomActivity}`,
      `0${ids.classroomActivity}`,
      `1e2`,
      `${ids.classroomActivity}.0`,
      '99999999999999999999',
      '-100',
      '0x64',
    ]) {
      const answer = await gateway.graphql(
        graphql(`query ClassroomAndNames($id: ID!) { classroomActivity(id: $id) { id classroom { name } studentNames { name } } }`),
        { id },
        tokens.otherTeacher,
      );
      expect(answer.data?.classroomActivity ?? null, id).toBeNull();
      for (const error of answer.errors ?? []) expect(['FORBIDDEN', 'NOT_FOUND']).toContain(error.extensions?.code);
      expectNothingOf(ids.classroomActivity, JSON.stringify(answer));
      const rest = await gateway.rest('GET', classroomActivityPath('student_names', encodeURIComponent(id)), {
        token: tokens.otherTeacher,
      });
      expect([403, 404], id).toContain(rest.status);
      expectNothingOf(ids.classroomActivity, rest.text);
    }
  });

  it('the hidden classroom activity is NOT_FOUND even to its own teacher, and to everyone else', async () => {
    for (const token of [tokens.owner, tokens.otherTeacher]) {
      const answer = await gateway.rest('GET', classroomActivityPath('student_names', ids.hiddenClassroomActivity), { token });
      expect(answer.status).toBe(404);
    }
  });

  it('the viewer sees only their own milestones and objectives', async () => {
    const answer = await gateway.graphql(
      graphql(`query ViewerAchievementsById { viewer { id milestones { name } objectives { name } } }`),
      {},
      tokens.otherTeacher,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.viewer!.id).toBe(String(ids.otherTeacher));
  });
});

describe('activities lead nowhere near classroom activities (introspection of the schema)', () => {
  const named = (ref: IntrospectionTypeRef): string => ('ofType' in ref && ref.ofType ? named(ref.ofType) : (ref as { name: string }).name);

  /** Every type reachable from `root` through output fields (and their possible types). */
  function reachableFrom(root: string): Set<string> {
    const types = new Map(introspection.__schema.types.map((type) => [type.name, type]));
    const seen = new Set<string>();
    const queue = [root];
    while (queue.length > 0) {
      const name = queue.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      const type = types.get(name) as any;
      for (const field of type?.fields ?? []) queue.push(named(field.type));
      for (const possible of type?.possibleTypes ?? []) queue.push(possible.name);
      for (const iface of type?.interfaces ?? []) queue.push(iface.name);
    }
    return seen;
  }

  it.each(['Activity', 'ActivityConnection', 'ActivityFlag'])(
    'no type reachable from %s is ClassroomActivity, ActivitySession or anything of a classroom',
    (root) => {
      const reachable = reachableFrom(root);
      for (const forbidden of ['ClassroomActivity', 'ActivitySession', 'Classroom', 'StudentName', 'ConceptResult', 'User', 'Unit']) {
        expect(reachable.has(forbidden), `${root} reaches ${forbidden}: ${[...reachable].join(', ')}`).toBe(false);
      }
      expect(reachable.has(root)).toBe(true);
    },
  );

  it('classroom activities are reached only through the guarded fields', () => {
    const leadingThere: string[] = [];
    for (const type of introspection.__schema.types) {
      for (const field of (type as any).fields ?? []) {
        if (['ClassroomActivity', 'ActivitySession'].includes(named(field.type))) leadingThere.push(`${type.name}.${field.name}`);
      }
    }
    expect(leadingThere.sort()).toEqual(
      [
        'ClassroomActivity.sessions',
        'FinishLessonPayload.classroomActivity',
        'FinishLessonPayload.followUpClassroomActivity',
        'Mutation.launchLesson',
        'Mutation.unpinAndLock',
        'Query.classroomActivity',
      ].sort(),
    );
  });
});
