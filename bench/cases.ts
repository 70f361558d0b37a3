import { finishLessonBody, type Dataset } from './dataset.ts';

// What is measured: each case is a stream of requests (reads rotate over the data set; a finish_lesson
// uses each prepared lesson once), the server it targets, its concurrency and the targets it must meet.

export type HttpRequest = { method: 'GET' | 'POST' | 'PUT'; path: string; headers: Record<string, string>; body?: string };

export type Limits = {
  /** req/s as a fraction of the baseline's. */
  minBaselineRatio?: number;
  /** SQL statements for one request. */
  maxStatements?: number;
  maxP50Ms?: number;
};

export type BenchCase = {
  name: string;
  server: 'baseline' | 'gateway';
  /** Concurrent connections. Reads use many; the latency targets are read under light concurrency. */
  connections: number;
  /** The i-th request of the case. */
  request(i: number): HttpRequest;
  /** Set for single-use requests (a lesson is finished once): how many were prepared. */
  prepared?: number;
  /** Why an answer is wrong (a 200 can still carry GraphQL errors), or null when it is right. */
  check(status: number, body: string): string | null;
  limits: Limits;
};

const READ_CONNECTIONS = 10;
/** A couple of teachers at once: enough to overlap requests without measuring mostly queueing. */
const LATENCY_CONNECTIONS = 2;

const json = { 'content-type': 'application/json' };

const graphql = (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}): HttpRequest => ({
  method: 'POST',
  path: '/graphql',
  headers: { ...json, ...headers },
  body: JSON.stringify({ query, variables }),
});

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

const ACTIVITY_FIELDS =
  'id uid name description flags data supportingInfo followUpActivityId classification { id key name } createdAt updatedAt';
const ACTIVITY_QUERY = `query Activity($id: ID!) { activity(id: $id) { ${ACTIVITY_FIELDS} } }`;
const LESSON_QUERY = `query Lesson($id: ID!) {
  classroomActivity(id: $id) { classroom { teacher { name } } sessions { student { name } conceptResults { concept { uid } } } }
}`;

export type CaseOptions = { sessions: number; finishLessonSizes: number[] };

export function buildCases(dataset: Dataset, { sessions, finishLessonSizes }: CaseOptions): BenchCase[] {
  const auth = { authorization: `Bearer ${dataset.teacherToken}` };
  const activityUid = (i: number) => dataset.activityUids[i % dataset.activityUids.length]!;
  const lessonId = (i: number) => dataset.readClassroomActivityIds[i % dataset.readClassroomActivityIds.length]!;
  const activityRead = expect('an activity', (body) => typeof (body.activity ?? body.data?.activity)?.uid === 'string');

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
    {
      name: 'baseline: GET /activities/:id (node:http, 1 query)',
      server: 'baseline',
      connections: READ_CONNECTIONS,
      request: (i) => ({ method: 'GET', path: `/activities/${activityUid(i)}`, headers: {} }),
      check: activityRead,
      limits: {},
    },
    {
      name: 'GraphQL activity(id)',
      server: 'gateway',
      connections: READ_CONNECTIONS,
      request: (i) => graphql(ACTIVITY_QUERY, { id: activityUid(i) }),
      check: activityRead,
      limits: { minBaselineRatio: 0.5 },
    },
    {
      name: 'REST GET /activities/:id',
      server: 'gateway',
      connections: READ_CONNECTIONS,
      request: (i) => ({ method: 'GET', path: `/api/v1/activities/${activityUid(i)}`, headers: {} }),
      check: activityRead,
      limits: { minBaselineRatio: 0.5 },
    },
    {
      name: 'REST student_names',
      server: 'gateway',
      connections: READ_CONNECTIONS,
      request: (i) => ({ method: 'GET', path: `/api/v1/classroom_activities/${lessonId(i)}/student_names`, headers: auth }),
      check: expect(`${sessions} names`, (body) => Object.keys(body).length === sessions),
      limits: { maxStatements: 4 },
    },
    {
      name: 'GraphQL classroomActivity (nested)',
      server: 'gateway',
      connections: READ_CONNECTIONS,
      request: (i) => graphql(LESSON_QUERY, { id: String(lessonId(i)) }, auth),
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
    {
      name: `REST uids_and_flags (${dataset.activityUids.length} activities)`,
      server: 'gateway',
      connections: LATENCY_CONNECTIONS,
      request: () => ({ method: 'GET', path: '/api/v1/activities/uids_and_flags', headers: {} }),
      check: expect(`${dataset.activityUids.length} uids`, (body) => Object.keys(body).length === dataset.activityUids.length),
      limits: { maxP50Ms: 50 },
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
