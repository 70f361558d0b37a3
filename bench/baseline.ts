import { createServer } from 'node:http';
import pg from 'pg';

// The baseline: the least a Node server can do to answer GET /activities/:id with the REST body — one
// SQL query, JSON.stringify, no framework. Its req/s is the limit of this stack on this machine, so the
// gateway's numbers are read as a fraction of it. Env: PORT, and DATABASE_URL or PGLITE_DIR.

type Query = (sql: string, params: unknown[]) => Promise<Record<string, any>[]>;

// uid first, else the numeric id (docs/contract.md, REST routes), in one statement.
const ACTIVITY_SQL = `
  SELECT a.id, a.uid, a.name, a.description, a.flags, a.data, a.supporting_info, a.follow_up_activity_id,
         a.created_at, a.updated_at, c.id AS c_id, c.key AS c_key, c.name AS c_name
  FROM activities a LEFT JOIN activity_classifications c ON c.id = a.activity_classification_id
  WHERE a.uid = $1 OR a.id = $2
  ORDER BY a.uid = $1 DESC
  LIMIT 1`;

async function connect(): Promise<Query> {
  if (process.env.PGLITE_DIR) {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(process.env.PGLITE_DIR);
    return async (sql, params) => (await db.query<Record<string, any>>(sql, params)).rows;
  }
  // The same pool size as the gateway's.
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  return async (sql, params) => (await pool.query(sql, params)).rows;
}

function activityBody(row: Record<string, any>) {
  return {
    activity: {
      id: row.id,
      uid: row.uid,
      name: row.name,
      description: row.description,
      flags: row.flags,
      data: row.data,
      supporting_info: row.supporting_info,
      follow_up_activity_id: row.follow_up_activity_id,
      classification: row.c_id === null ? null : { id: row.c_id, key: row.c_key, name: row.c_name },
      anonymous_path: `/activity_sessions/anonymous?activity_id=${row.id}`,
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
    },
    meta: { status: 'success', message: null, errors: null },
  };
}

const query = await connect();

const server = createServer((request, response) => {
  const send = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  };
  const match = /^\/activities\/([^/?]+)$/.exec(request.url ?? '');
  if (request.url === '/healthz') return send(200, { status: 'ok' });
  if (request.method !== 'GET' || !match) return send(404, { error: 'not found' });
  const id = decodeURIComponent(match[1]!);
  const numericId = /^\d{1,9}$/.test(id) ? Number(id) : null;
  query(ACTIVITY_SQL, [id, numericId]).then(
    ([row]) => (row ? send(200, activityBody(row)) : send(404, { error: 'not found' })),
    () => send(500, { error: 'error' }),
  );
});

server.listen(Number(process.env.PORT), '127.0.0.1');
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
