import { finishLessonBody, type Dataset } from './dataset.ts';

// What is measured: each case is a stream of requests, the server it targets, its concurrency and its
// targets. The side-by-side reads ask the gateway, the peer and the baseline for the same answer; their
// cases share a `read` and are measured in interleaved rounds (bench/README.md).

export type HttpRequest = { method: 'GET' | 'POST' | 'PUT'; path: string; headers: Record<string, string>; body?: string };

export type ServerName = 'gateway' | 'peer' | 'baseline';

export type Limits = {
  /** req/s as a fraction of the same read's baseline. */
  minBaselineRatio?: number;
  /** req/s as a fraction of the same read's peer. */
  minPeerRatio?: number;
  /** Database CPU per request as a multiple of the peer's. */
  maxPeerDbCpuRatio?: number;
  /** SQL statements for one request. */
  maxStatements?: number;
  maxP50Ms?: number;
  /** CPU per request as a multiple of the own-token case's (`ownTokenCase`): what a JWT adds. */
  maxOwnTokenCpuRatio?: number;
};

export type BenchCase = {
  name: string;
  server: ServerName;
  /** Concurrent connections. Reads use many; the latency targets are read under light concurrency. */
  connections: number;
  /** The i-th request of the case. */
  request(i: number): HttpRequest;
  /** Set for single-use requests (a lesson is finished once): how many were prepared. */
  prepared?: number;
  /** Why an answer is wrong (a 200 can still carry GraphQL errors), or null when it is right. */
  check(status: number, body: string): string | null;
  /** The status every answer must have when it is not 2xx: 304 for a conditional case, whose requests name the current tag. */
  expectStatus?: 304;
  /**
   * Run before the case's first request, in-process and over HTTP alike: a conditional case fetches the tags
   * its requests name (`tagOf` sends a request and answers its ETag; every instance of the gateway gives the same).
   */
  prepare?(tagOf: (request: HttpRequest) => Promise<string>): Promise<void>;
  limits: Limits;
  /** Side by side: the read this case answers. The cases of one read are measured in interleaved rounds. */
  read?: string;
  /** The read whose peer this case is compared with, when it has none of its own (REST, by the same data). */
  peerRead?: string;
  /**
   * Set on a JWT case: the name of the case that sends the same requests with the gateway's own token. Its CPU
   * per request is compared with that case's, measured in the same rounds; `--cases` brings that case along.
   */
  ownTokenCase?: string;
  /**
   * The answer's data, named and shaped alike for the gateway and the peer (ids as numbers, times as epoch
   * ms): before the load, the peer's answer must give the gateway's data. A baseline's answer must be the
   * gateway's JSON value itself.
   */
  data?(body: any): unknown;
};

const READ_CONNECTIONS = 10;
/** A JWT case may cost this much more CPU per request than its own-token case (issue 22). */
const MAX_JWT_CPU_RATIO = 1.1;
/** A couple of teachers at once: enough to overlap requests without measuring mostly queueing. */
const LATENCY_CONNECTIONS = 2;

const json = { 'content-type': 'application/json' };

const graphql = (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}): HttpRequest => ({
  method: 'POST',
  path: '/graphql',
  headers: { ...json, ...headers },
  body: JSON.stringify({ query, variables }),
});

const get = (path: string, headers: Record<string, string> = {}): HttpRequest => ({ method: 'GET', path, headers });

/**
 * A GraphQL query by GET, as standard clients send one (and a CDN can keep it), with no credentials. Its
 * Accept is part of its tag: set here, so that fetch() (which adds one) and autocannon (which adds none) agree.
 */
const graphqlGet = (query: string, variables: Record<string, unknown>): HttpRequest =>
  get(`/graphql?${new URLSearchParams({ query, variables: JSON.stringify(variables) }).toString()}`, { accept: 'application/json' });

/** The same request naming `tag` in If-None-Match: the gateway answers 304 while the tag holds. */
const naming = (request: HttpRequest, tag: string | undefined): HttpRequest => ({
  ...request,
  headers: { ...request.headers, 'if-none-match': tag ?? '"no tag yet"' },
});

/** A 304 has no body. */
const notModified = (status: number, text: string): string | null =>
  status === 304 && text === '' ? null : `expected 304 without a body, got HTTP ${status}: ${text.slice(0, 300)}`;

/** A check from a predicate over the parsed body. */
function expect(what: string, ok: (body: any) => boolean) {
  return (status: number, text: string): string | null => {
    if (status !== 200) return `HTTP ${status}: ${text.slice(0, 300)}`;
    try {
      const body = JSON.parse(text);
      if (body?.errors) return `GraphQL errors: ${JSON.stringify(body.errors).slice(0, 300)}`;
      return ok(body) ? null : `expected ${what}, got ${text.slice(0, 300)}`;
    } catch {
      return `not JSON: ${text.slice(0, 300)}`;
    }
  };
}

// The gateway's operations (schema.graphql) and the peer's (PostGraphile's names for the same tables:
// `rowId` is the column id, relations follow the foreign keys of prisma/migrations).
const ACTIVITY_FIELDS = 'id uid name description flags data supportingInfo followUpActivityId createdAt updatedAt';
const ACTIVITY_QUERY = `query Activity($id: ID!) { activity(id: $id) { ${ACTIVITY_FIELDS} classification { id key name } } }`;
const LESSON_QUERY = `query Lesson($id: ID!) {
  classroomActivity(id: $id) { id classroom { id name teacher { id name } } sessions { uid state student { id name } } }
}`;
const PAGE_QUERY = `query Activities { activities(first: 20) { totalCount edges { cursor node { ${ACTIVITY_FIELDS} } } pageInfo { hasNextPage endCursor } } }`;
const NESTED_LESSON_QUERY = `query NestedLesson($id: ID!) {
  classroomActivity(id: $id) { classroom { teacher { name } } sessions { student { name } conceptResults { concept { uid } } } }
}`;

const PEER_ACTIVITY_FIELDS = 'rowId uid name description flags data supportingInfo followUpActivityId createdAt updatedAt';
const PEER_ACTIVITY_QUERY = `query Activity($id: Int!) {
  activityByRowId(rowId: $id) { ${PEER_ACTIVITY_FIELDS} activityClassificationByActivityClassificationId { rowId key name } }
}`;
// Amber offers conditions on indexed columns only: the teachers' role and the sessions' `visible` cannot be
// filtered, so the peer reads every teacher (the owner is picked from them) and every session — all
// visible in this data set, so the answers hold the same data.
const PEER_LESSON_QUERY = `query Lesson($id: Int!) {
  classroomActivityByRowId(rowId: $id) {
    rowId
    classroomByClassroomId { rowId name classroomsTeachersByClassroomId { nodes { role userByUserId { rowId name } } } }
    activitySessionsByClassroomActivityId(orderBy: PRIMARY_KEY_ASC) { nodes { uid state userByUserId { rowId name } } }
  }
}`;
const PEER_PAGE_QUERY = `query Activities {
  allActivities(first: 20, orderBy: PRIMARY_KEY_ASC) { totalCount edges { cursor node { ${PEER_ACTIVITY_FIELDS} } } pageInfo { hasNextPage endCursor } }
}`;
const PEER_STUDENT_NAMES_QUERY = `query StudentNames($id: Int!) {
  classroomActivityByRowId(rowId: $id) { activitySessionsByClassroomActivityId(orderBy: PRIMARY_KEY_ASC) { nodes { uid userByUserId { name } } } }
}`;

type Classification = { id: number; key: string; name: string } | null;

/** An activity's data, from any of the three shapes. */
function activityData(a: {
  id: unknown;
  uid: string;
  name: string;
  description: string;
  flags: string[];
  data: unknown;
  supportingInfo: string | null;
  followUpActivityId: unknown;
  createdAt: string;
  updatedAt: string;
  classification?: Classification;
}) {
  return {
    id: Number(a.id),
    uid: a.uid,
    name: a.name,
    description: a.description,
    flags: a.flags,
    data: a.data,
    supportingInfo: a.supportingInfo,
    followUpActivityId: a.followUpActivityId === null ? null : Number(a.followUpActivityId),
    createdAt: Date.parse(a.createdAt),
    updatedAt: Date.parse(a.updatedAt),
    ...(a.classification === undefined ? {} : { classification: a.classification }),
  };
}

const classificationOf = (c: { id?: unknown; rowId?: unknown; key: string; name: string } | null): Classification =>
  c && { id: Number(c.id ?? c.rowId), key: c.key, name: c.name };

const gatewayActivityData = (a: any) => a && activityData({ ...a, classification: classificationOf(a.classification) });
const restActivityData = (a: any) =>
  a &&
  activityData({
    ...a,
    supportingInfo: a.supporting_info,
    followUpActivityId: a.follow_up_activity_id,
    createdAt: a.created_at,
    updatedAt: a.updated_at,
    classification: classificationOf(a.classification),
  });
const peerActivityData = (a: any) =>
  a && activityData({ ...a, id: a.rowId, classification: classificationOf(a.activityClassificationByActivityClassificationId) });

const user = (u: any) => u && { id: Number(u.id ?? u.rowId), name: u.name };

export type CaseOptions = {
  sessions: number;
  finishLessonSizes: number[];
  /** A JWT from the identity provider naming the data set's teacher: one for the whole run, as one client's. */
  teacherJwt: string;
};

/**
 * The same requests as an own-token case, sent with the teacher's JWT instead of the gateway token; in the
 * same read, so that both are measured in the same rounds. Only the CPU against the own-token case is a target.
 */
function withJwt(ownToken: BenchCase, jwt: string): BenchCase {
  return {
    ...ownToken,
    name: `${ownToken.name}, JWT`,
    request: (i) => {
      const request = ownToken.request(i);
      return { ...request, headers: { ...request.headers, authorization: `Bearer ${jwt}` } };
    },
    ownTokenCase: ownToken.name,
    limits: { maxOwnTokenCpuRatio: MAX_JWT_CPU_RATIO },
  };
}

/** Activities the anonymous GET cases rotate over: a conditional case names the tag of each. */
const PUBLIC_READS = 100;

export function buildCases(dataset: Dataset, { sessions, finishLessonSizes, teacherJwt }: CaseOptions): BenchCase[] {
  const auth = { authorization: `Bearer ${dataset.teacherToken}` };
  const activityId = (i: number) => dataset.activityIds[i % dataset.activityIds.length]!;
  const publicActivity = (i: number) => graphqlGet(ACTIVITY_QUERY, { id: String(activityId(i % PUBLIC_READS)) });
  const uidsAndFlags = get('/api/v1/activities/uids_and_flags');
  const activityTags: string[] = [];
  let flagsTag: string | undefined;
  const lessonId = (i: number) => dataset.readClassroomActivityIds[i % dataset.readClassroomActivityIds.length]!;

  const activityRead = expect(
    'an activity',
    (body) => typeof (body.activity ?? body.data?.activity ?? body.data?.activityByRowId)?.uid === 'string',
  );
  const lessonRead = expect(`${sessions} sessions`, (body) => {
    const lesson = body.data?.classroomActivity ?? body.data?.classroomActivityByRowId;
    const found = lesson?.sessions ?? lesson?.activitySessionsByClassroomActivityId?.nodes;
    return found?.length === sessions;
  });
  const pageRead = expect('20 activities and a total', (body) => {
    const page = body.data?.activities ?? body.data?.allActivities;
    return page?.edges?.length === 20 && page.totalCount === dataset.activityIds.length;
  });
  const namesRead = expect(`${sessions} names`, (body) => {
    const nodes = body.data?.classroomActivityByRowId?.activitySessionsByClassroomActivityId?.nodes;
    return (nodes ?? Object.keys(body)).length === sessions;
  });

  const lessonData = (lesson: any) =>
    lesson && { ...lesson, sessions: lesson.sessions.map((s: any) => ({ ...s, state: s.state.toLowerCase() })) };
  const pageData = (page: any, node: (n: any) => unknown) =>
    page && { totalCount: page.totalCount, hasNextPage: page.pageInfo.hasNextPage, nodes: page.edges.map((edge: any) => node(edge.node)) };

  const activityByToken: BenchCase = {
    name: 'GraphQL activity(id) + classification',
    server: 'gateway',
    read: 'activity',
    connections: READ_CONNECTIONS,
    request: (i) => graphql(ACTIVITY_QUERY, { id: String(activityId(i)) }, auth),
    check: activityRead,
    data: (body) => gatewayActivityData(body.data.activity),
    limits: { minPeerRatio: 1, maxPeerDbCpuRatio: 1, minBaselineRatio: 0.5 },
  };
  const lessonByToken: BenchCase = {
    name: `GraphQL classroomActivity: classroom + owner, ${sessions} sessions + students`,
    server: 'gateway',
    read: 'lesson',
    connections: READ_CONNECTIONS,
    request: (i) => graphql(LESSON_QUERY, { id: String(lessonId(i)) }, auth),
    check: lessonRead,
    data: (body) => {
      const lesson = body.data.classroomActivity;
      return lessonData({
        id: Number(lesson.id),
        classroom: { id: Number(lesson.classroom.id), name: lesson.classroom.name, teacher: user(lesson.classroom.teacher) },
        sessions: lesson.sessions.map((s: any) => ({ uid: s.uid, state: s.state, student: user(s.student) })),
      });
    },
    limits: { minPeerRatio: 1, maxPeerDbCpuRatio: 1, maxStatements: 4 },
  };

  const sideBySide: BenchCase[] = [
    activityByToken,
    withJwt(activityByToken, teacherJwt),
    {
      name: 'peer: activityByRowId + classification',
      server: 'peer',
      read: 'activity',
      connections: READ_CONNECTIONS,
      request: (i) => graphql(PEER_ACTIVITY_QUERY, { id: activityId(i) }),
      check: activityRead,
      data: (body) => peerActivityData(body.data.activityByRowId),
      limits: {},
    },
    {
      name: 'baseline: activity by id + classification',
      server: 'baseline',
      read: 'activity',
      connections: READ_CONNECTIONS,
      request: (i) => get(`/graphql/activity/${activityId(i)}`, auth),
      check: activityRead,
      limits: {},
    },
    {
      name: 'REST GET /activities/:id',
      server: 'gateway',
      read: 'rest activity',
      peerRead: 'activity',
      connections: READ_CONNECTIONS,
      request: (i) => get(`/api/v1/activities/${activityId(i)}`, auth),
      check: activityRead,
      data: (body) => restActivityData(body.activity),
      limits: { minPeerRatio: 1, maxPeerDbCpuRatio: 1, minBaselineRatio: 0.5 },
    },
    {
      name: 'baseline: REST activity body',
      server: 'baseline',
      read: 'rest activity',
      connections: READ_CONNECTIONS,
      request: (i) => get(`/api/v1/activities/${activityId(i)}`, auth),
      check: activityRead,
      limits: {},
    },
    lessonByToken,
    withJwt(lessonByToken, teacherJwt),
    {
      name: 'peer: classroomActivityByRowId with relations',
      server: 'peer',
      read: 'lesson',
      connections: READ_CONNECTIONS,
      request: (i) => graphql(PEER_LESSON_QUERY, { id: lessonId(i) }),
      check: lessonRead,
      data: (body) => {
        const lesson = body.data.classroomActivityByRowId;
        const classroom = lesson.classroomByClassroomId;
        const owner = classroom.classroomsTeachersByClassroomId.nodes.find((t: any) => t.role === 'owner');
        return lessonData({
          id: lesson.rowId,
          classroom: { id: classroom.rowId, name: classroom.name, teacher: user(owner?.userByUserId ?? null) },
          sessions: lesson.activitySessionsByClassroomActivityId.nodes.map((s: any) => ({
            uid: s.uid,
            state: s.state,
            student: user(s.userByUserId),
          })),
        });
      },
      limits: {},
    },
    {
      name: 'baseline: lesson',
      server: 'baseline',
      read: 'lesson',
      connections: READ_CONNECTIONS,
      request: (i) => get(`/graphql/classroom_activity/${lessonId(i)}`, auth),
      check: lessonRead,
      limits: {},
    },
    {
      name: 'GraphQL activities(first: 20) + totalCount',
      server: 'gateway',
      read: 'page',
      connections: READ_CONNECTIONS,
      request: () => graphql(PAGE_QUERY, {}, auth),
      check: pageRead,
      data: (body) => pageData(body.data.activities, activityData),
      limits: { minPeerRatio: 1, maxPeerDbCpuRatio: 1 },
    },
    {
      name: 'peer: allActivities(first: 20) + totalCount',
      server: 'peer',
      read: 'page',
      connections: READ_CONNECTIONS,
      request: () => graphql(PEER_PAGE_QUERY, {}),
      check: pageRead,
      data: (body) => pageData(body.data.allActivities, (node) => activityData({ ...node, id: node.rowId })),
      limits: {},
    },
    {
      name: 'baseline: activities page',
      server: 'baseline',
      read: 'page',
      connections: READ_CONNECTIONS,
      request: () => get('/graphql/activities', auth),
      check: pageRead,
      limits: {},
    },
    {
      name: 'REST student_names',
      server: 'gateway',
      read: 'student_names',
      connections: READ_CONNECTIONS,
      request: (i) => get(`/api/v1/classroom_activities/${lessonId(i)}/student_names`, auth),
      check: namesRead,
      data: (body) => body,
      limits: { minPeerRatio: 1, maxPeerDbCpuRatio: 1, maxStatements: 4 },
    },
    {
      name: 'peer: sessions uid + student name',
      server: 'peer',
      read: 'student_names',
      connections: READ_CONNECTIONS,
      request: (i) => graphql(PEER_STUDENT_NAMES_QUERY, { id: lessonId(i) }),
      check: namesRead,
      data: (body) =>
        Object.fromEntries(
          body.data.classroomActivityByRowId.activitySessionsByClassroomActivityId.nodes.map((s: any) => [s.uid, s.userByUserId.name]),
        ),
      limits: {},
    },
    {
      name: 'baseline: student_names',
      server: 'baseline',
      read: 'student_names',
      connections: READ_CONNECTIONS,
      request: (i) => get(`/api/v1/classroom_activities/${lessonId(i)}/student_names`, auth),
      check: namesRead,
      limits: {},
    },
  ];

  const finishLessonCases = finishLessonSizes.map((results): BenchCase => {
    const lessons = dataset.freshLessons.get(results) ?? [];
    return {
      name: `REST finish_lesson, ${results} results`,
      server: 'gateway',
      connections: LATENCY_CONNECTIONS,
      prepared: lessons.length,
      request: (i) => ({
        method: 'PUT',
        path: `/api/v1/classroom_activities/${lessons[i]!.classroomActivityId}/finish_lesson`,
        headers: { ...json, ...auth },
        body: finishLessonBody(lessons[i]!, dataset.conceptUids, results),
      }),
      check: expect('a follow_up_url', (body) => typeof body.follow_up_url === 'string'),
      limits: { maxStatements: 12, ...(results === 1_000 ? { maxP50Ms: 250 } : {}) },
    };
  });

  return [
    ...sideBySide,
    {
      name: `GraphQL classroomActivity + concept results (${sessions} sessions)`,
      server: 'gateway',
      connections: READ_CONNECTIONS,
      request: (i) => graphql(NESTED_LESSON_QUERY, { id: String(lessonId(i)) }, auth),
      check: expect(`${sessions} sessions with results`, (body) => {
        const lesson = body.data?.classroomActivity;
        return (
          lesson?.sessions?.length === sessions &&
          lesson.sessions[0].conceptResults.length > 0 &&
          typeof lesson.classroom.teacher?.name === 'string'
        );
      }),
      limits: { maxStatements: 4 },
    },
    // Public reads with no credentials: the full answer, and the 304 a CDN's revalidation (or a client
    // holding the answer) gets, in interleaved rounds of the same read.
    {
      name: 'GraphQL GET activity(id) + classification, anonymous',
      server: 'gateway',
      read: 'public activity',
      connections: READ_CONNECTIONS,
      request: publicActivity,
      check: activityRead,
      limits: {},
    },
    {
      name: 'GraphQL GET activity(id), anonymous, If-None-Match: 304',
      server: 'gateway',
      read: 'public activity',
      connections: READ_CONNECTIONS,
      request: (i) => naming(publicActivity(i), activityTags[i % PUBLIC_READS]),
      prepare: async (tagOf) => {
        const tags = await Promise.all(Array.from({ length: PUBLIC_READS }, (_, i) => tagOf(publicActivity(i))));
        activityTags.splice(0, activityTags.length, ...tags);
      },
      check: notModified,
      expectStatus: 304,
      limits: { maxStatements: 0 },
    },
    {
      name: `REST uids_and_flags (${dataset.activityUids.length} activities)`,
      server: 'gateway',
      read: 'uids_and_flags',
      connections: LATENCY_CONNECTIONS,
      request: () => uidsAndFlags,
      check: expect(`${dataset.activityUids.length} uids`, (body) => Object.keys(body).length === dataset.activityUids.length),
      limits: { maxP50Ms: 50 },
    },
    {
      name: 'REST uids_and_flags, If-None-Match: 304',
      server: 'gateway',
      read: 'uids_and_flags',
      connections: LATENCY_CONNECTIONS,
      request: () => naming(uidsAndFlags, flagsTag),
      prepare: async (tagOf) => {
        flagsTag = await tagOf(uidsAndFlags);
      },
      check: notModified,
      expectStatus: 304,
      limits: { maxStatements: 0 },
    },
    ...finishLessonCases,
    {
      name: 'REST published_edition',
      server: 'gateway',
      connections: READ_CONNECTIONS,
      request: () => ({ method: 'POST', path: '/api/v1/published_edition', headers: auth }),
      check: expect('{}', (body) => typeof body === 'object' && Object.keys(body).length === 0),
      limits: {},
    },
  ];
}
