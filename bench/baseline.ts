import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import pg from 'pg';
import { reportStatements } from './statement-counter.ts';

// The baseline (bench/README.md): the best a hand-written node:http + pg server does for each answer of the
// side-by-side reads, the same JSON value: one prepared statement per request, the gateway's token check
// folded into it, the JSON built where it measured cheapest. Env: PORT, and DATABASE_URL or PGLITE_DIR.

type Query = (name: string, text: string, values: unknown[]) => Promise<Record<string, any>[]>;

async function connect(): Promise<Query> {
  if (process.env.PGLITE_DIR) {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(process.env.PGLITE_DIR);
    return async (_name, text, values) => (await db.query<Record<string, any>>(text, values)).rows;
  }
  reportStatements();
  // The same pool size as the gateway's; each connection prepares a named statement on its first use.
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  return async (name, text, values) => (await pool.query<Record<string, any>>({ name, text, values })).rows;
}

/** ISO 8601 in UTC with milliseconds, as the gateway's DateTime (timestamps are stored to the millisecond). */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const VALID_TOKEN = `t.token_hash = $TOKEN AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())`;

/** True when no token was presented ($n null) or a valid one was ($n: its SHA-256). */
const credentialsOk = (n: number) =>
  `($${n}::text IS NULL OR EXISTS (SELECT 1 FROM access_tokens t WHERE ${VALID_TOKEN.replace('$TOKEN', `$${n}`)}))`;

/** The user of the valid token $n, as a derived table of zero or one row. */
const viewer = (n: number) =>
  `(SELECT u.id FROM access_tokens t JOIN users u ON u.id = t.user_id WHERE ${VALID_TOKEN.replace('$TOKEN', `$${n}`)})`;

/**
 * The activity whose uid is $1, else whose id is $2 (docs/contract.md: the uid is tried first): two probes
 * of unique indexes, the second run only when the first found nothing. Cheaper than the old
 * `uid = $1 OR id = $2 ORDER BY uid = $1 DESC LIMIT 1`, which reads both and sorts.
 */
const ACTIVITY_BY_KEY = `(SELECT * FROM activities WHERE uid = $1 UNION ALL SELECT * FROM activities WHERE id = $2 LIMIT 1)`;

const classificationJson = (id: string) =>
  `CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', ${id}, 'key', c.key, 'name', c.name) END`;

const GRAPHQL_ACTIVITY = `
  SELECT ${credentialsOk(3)} AS ok, json_build_object('data', json_build_object('activity', json_build_object(
    'id', a.id::text, 'uid', a.uid, 'name', a.name, 'description', a.description, 'flags', a.flags, 'data', a.data,
    'supportingInfo', a.supporting_info, 'followUpActivityId', a.follow_up_activity_id::text,
    'classification', ${classificationJson('c.id::text')},
    'createdAt', ${iso('a.created_at')}, 'updatedAt', ${iso('a.updated_at')})))::text AS body
  FROM ${ACTIVITY_BY_KEY} a LEFT JOIN activity_classifications c ON c.id = a.activity_classification_id`;

const REST_ACTIVITY = `
  SELECT ${credentialsOk(3)} AS ok, json_build_object('activity', json_build_object(
    'id', a.id, 'uid', a.uid, 'name', a.name, 'description', a.description, 'flags', a.flags, 'data', a.data,
    'supporting_info', a.supporting_info, 'follow_up_activity_id', a.follow_up_activity_id,
    'classification', ${classificationJson('c.id')},
    'anonymous_path', '/activity_sessions/anonymous?activity_id=' || a.id,
    'created_at', ${iso('a.created_at')}, 'updated_at', ${iso('a.updated_at')}),
    'meta', json_build_object('status', 'success', 'message', NULL, 'errors', NULL))::text AS body
  FROM ${ACTIVITY_BY_KEY} a LEFT JOIN activity_classifications c ON c.id = a.activity_classification_id`;

/** The first page of activities in id order, one row more to know whether there is a next page, and the total. */
const PAGE_SIZE = 20;
const ACTIVITY_PAGE = `
  SELECT h.ok, h.total, a.id, a.uid, a.name, a.description, a.flags, a.data, a.supporting_info, a.follow_up_activity_id,
         a.created_at, a.updated_at
  FROM (SELECT ${credentialsOk(1)} AS ok, (SELECT count(*) FROM activities)::int AS total) h
  LEFT JOIN LATERAL (SELECT * FROM activities ORDER BY id LIMIT ${PAGE_SIZE + 1}) a ON true
  ORDER BY a.id`;

/** Whether the token's user ($2) teaches the classroom of the classroom activity `ca`: no viewer → 401, else 403. */
const TEACHER = `
  LEFT JOIN ${viewer(2)} v ON true
  CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM classrooms_teachers ct WHERE ct.classroom_id = ca.classroom_id AND ct.user_id = v.id) AS teacher) m`;

/** A visible classroom activity ($1) with its classroom, owner, and one row per visible session (read for a teacher only). */
const LESSON = `
  SELECT ca.id, cl.id AS classroom_id, cl.name AS classroom_name, o.id AS owner_id, o.name AS owner_name,
         v.id IS NOT NULL AS signed_in, m.teacher, s.uid, upper(s.state::text) AS state, su.id AS student_id, su.name AS student_name
  FROM classroom_activities ca
  JOIN classrooms cl ON cl.id = ca.classroom_id
  ${TEACHER}
  LEFT JOIN LATERAL (SELECT u.id, u.name FROM classrooms_teachers ct JOIN users u ON u.id = ct.user_id
                     WHERE ct.classroom_id = cl.id AND ct.role = 'owner' LIMIT 1) o ON true
  LEFT JOIN activity_sessions s ON m.teacher AND s.classroom_activity_id = ca.id AND s.visible
  LEFT JOIN users su ON su.id = s.user_id
  WHERE ca.id = $1 AND ca.visible
  ORDER BY s.id`;

/** The session uid → student name object of a visible classroom activity ($1), for a teacher. */
const STUDENT_NAMES = `
  SELECT v.id IS NOT NULL AS signed_in, m.teacher,
         CASE WHEN m.teacher THEN (SELECT coalesce(json_object_agg(s.uid, u.name ORDER BY s.id), '{}')::text
                                   FROM activity_sessions s JOIN users u ON u.id = s.user_id
                                   WHERE s.classroom_activity_id = ca.id AND s.visible) END AS body
  FROM classroom_activities ca
  ${TEACHER}
  WHERE ca.id = $1 AND ca.visible`;

const NOT_FOUND = '{"meta":{"status":"not_found","message":"The resource you were looking for does not exist","errors":null}}';
const UNAUTHORIZED = '{"meta":{"status":"unauthorized","message":"Valid credentials are required","errors":null}}';
const FORBIDDEN = '{"meta":{"status":"forbidden","message":"Only a teacher of this classroom may do this","errors":null}}';
const graphqlError = (code: string) => JSON.stringify({ errors: [{ message: code, extensions: { code } }], data: null });

function send(response: ServerResponse, status: number, text: string) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** The SHA-256 of a `Bearer <token>` (as stored); undefined when there is none, null when it is malformed. */
function tokenHash(header: string | undefined): string | null | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? createHash('sha256').update(match[1]!, 'utf8').digest('hex') : null;
}

const numericId = (id: string) => (/^\d{1,9}$/.test(id) ? Number(id) : null);
/** The gateway's cursor: base64url of `activity:<id>`. */
const activityCursor = (id: number) => Buffer.from(`activity:${id}`).toString('base64url');

type Route = (query: Query, response: ServerResponse, id: string, token: string | null) => Promise<void>;

const routes: [RegExp, Route][] = [
  [
    /^\/graphql\/activity\/([^/?]+)$/,
    async (query, response, id, token) => {
      const [row] = await query('graphql_activity', GRAPHQL_ACTIVITY, [id, numericId(id), token]);
      if (row && !row.ok) return send(response, 200, graphqlError('UNAUTHENTICATED'));
      send(response, 200, row ? row.body : '{"data":{"activity":null}}');
    },
  ],
  [
    /^\/api\/v1\/activities\/([^/?]+)$/,
    async (query, response, id, token) => {
      const [row] = await query('rest_activity', REST_ACTIVITY, [id, numericId(id), token]);
      if (!row) return send(response, 404, NOT_FOUND);
      send(response, row.ok ? 200 : 401, row.ok ? row.body : UNAUTHORIZED);
    },
  ],
  [
    /^\/graphql\/activities()$/,
    async (query, response, _id, token) => {
      const rows = await query('activity_page', ACTIVITY_PAGE, [token]);
      if (!rows[0]!.ok) return send(response, 200, graphqlError('UNAUTHENTICATED'));
      const page = rows.filter((row) => row.id !== null).slice(0, PAGE_SIZE);
      const edges = page.map((row) => ({
        cursor: activityCursor(row.id),
        node: {
          id: String(row.id),
          uid: row.uid,
          name: row.name,
          description: row.description,
          flags: row.flags,
          data: row.data,
          supportingInfo: row.supporting_info,
          followUpActivityId: row.follow_up_activity_id === null ? null : String(row.follow_up_activity_id),
          createdAt: (row.created_at as Date).toISOString(),
          updatedAt: (row.updated_at as Date).toISOString(),
        },
      }));
      const pageInfo = { hasNextPage: rows.length > PAGE_SIZE, endCursor: edges.at(-1)?.cursor ?? null };
      send(response, 200, JSON.stringify({ data: { activities: { totalCount: rows[0]!.total, edges, pageInfo } } }));
    },
  ],
  [
    /^\/graphql\/classroom_activity\/(\d{1,9})$/,
    async (query, response, id, token) => {
      const rows = await query('lesson', LESSON, [Number(id), token]);
      const first = rows[0];
      if (!first) return send(response, 200, '{"data":{"classroomActivity":null}}');
      if (!first.teacher) return send(response, 200, graphqlError(first.signed_in ? 'FORBIDDEN' : 'UNAUTHENTICATED'));
      const classroom = {
        id: String(first.classroom_id),
        name: first.classroom_name,
        teacher: first.owner_id === null ? null : { id: String(first.owner_id), name: first.owner_name },
      };
      const sessions =
        first.uid === null
          ? []
          : rows.map((row) => ({ uid: row.uid, state: row.state, student: { id: String(row.student_id), name: row.student_name } }));
      send(response, 200, JSON.stringify({ data: { classroomActivity: { id: String(first.id), classroom, sessions } } }));
    },
  ],
  [
    /^\/api\/v1\/classroom_activities\/(\d{1,9})\/student_names$/,
    async (query, response, id, token) => {
      const [row] = await query('student_names', STUDENT_NAMES, [Number(id), token]);
      if (!row) return send(response, 404, NOT_FOUND);
      if (row.teacher) return send(response, 200, row.body);
      send(response, row.signed_in ? 403 : 401, row.signed_in ? FORBIDDEN : UNAUTHORIZED);
    },
  ],
];

const query = await connect();

const server = createServer((request, response) => {
  const url = request.url ?? '';
  if (url === '/healthz') return send(response, 200, '{"status":"ok"}');
  let match: RegExpExecArray | null = null;
  const route = request.method === 'GET' ? routes.find(([pattern]) => (match = pattern.exec(url))) : undefined;
  if (!route || !match) return send(response, 404, NOT_FOUND);
  const token = tokenHash(request.headers.authorization);
  if (token === null) return send(response, 401, UNAUTHORIZED);
  route[1](query, response, decodeURIComponent((match as RegExpExecArray)[1]!), token ?? null).catch(() =>
    send(response, 500, '{"meta":{"status":"error","message":"error","errors":null}}'),
  );
});

server.listen(Number(process.env.PORT), '127.0.0.1');
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
