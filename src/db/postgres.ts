import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Driver } from './driver.ts';
import { sharedListener } from './listener.ts';
import { applyMigrations, type SqlRunner } from './migrate.ts';

// A PostgreSQL server: migrations under an advisory lock (several instances may start at once), pg's pool
// for queries (perhaps through a pooler), and one listening connection outside it (src/db/listener.ts).
// Every wait on the pool is bounded (DATABASE_STATEMENT_TIMEOUT): a connection, a statement's answer.

const POOL_SIZE = 10;

/**
 * `url` serves the queries (the server, or a pooler in front of it); `directUrl` the migrations and the
 * listening connection, which need a session of their own on the server itself (the same URL without a pooler).
 */
export async function openPostgres({
  url,
  directUrl,
  migrate,
  statementTimeoutMs,
}: {
  url: string;
  directUrl: string;
  migrate: boolean;
  statementTimeoutMs: number;
}): Promise<Driver> {
  if (migrate) {
    const client = new pg.Client({ connectionString: directUrl });
    await client.connect();
    try {
      await applyMigrations(pgRunner(client), { lock: true });
    } finally {
      await client.end();
    }
  }
  // connectionTimeoutMillis bounds both a new connection's start and a wait for a pooled one.
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: statementTimeoutMs });
  // An idle client losing its connection (database restarted) must not crash the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => boundStatements(client, statementTimeoutMs));
  // The listener's check is sent as the app's events are: through the pool, committed on its own.
  const listener = sharedListener(directUrl, async (channel, payload) => {
    await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
  });
  return {
    kind: 'postgresql',
    adapter: new PrismaPg(pool),
    // A named statement is parsed and planned once per pooled connection, then only executed.
    read: async (text, params, name) => {
      const values = params as unknown[];
      const { rows } = await pool.query<Record<string, unknown>>(name ? { name, text, values } : { text, values });
      return rows;
    },
    listen: async (channel, onMessage, onState = () => {}) => {
      const subscription = { channel, onMessage, onState };
      await listener.add(subscription);
      return () => listener.remove(subscription);
    },
    poolStats: () => ({ max: POOL_SIZE, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
}

function pgRunner(client: pg.Client): SqlRunner {
  return {
    exec: async (sql) => void (await client.query(sql)),
    query: async (sql, params) => (await client.query<Record<string, unknown>>(sql, params as unknown[])).rows,
  };
}

/** What a statement that did not answer in time fails with (src/db/errors.ts reads it as "unavailable"). */
export const STATEMENT_TIMED_OUT = 'Connection terminated: the statement did not answer in time';

type Query = (...args: unknown[]) => unknown;

/**
 * Every statement sent on `client` answers within `ms`, else the connection is destroyed: its statement
 * (and any queued behind it) fails at once, and the pool drops the connection instead of lending it again
 * (it may be mid-transaction, or hold an answer that arrives late). pg's own query_timeout leaves the
 * connection in the pool. Prisma's adapter uses the promise form, pg's pool.query the callback form.
 */
function boundStatements(client: pg.PoolClient, ms: number): void {
  const target = client as unknown as { query: Query; connection: { stream: { destroy(error?: Error): void } } };
  const query: Query = target.query.bind(client);
  target.query = (...args) => {
    const timer = setTimeout(() => target.connection.stream.destroy(new Error(STATEMENT_TIMED_OUT)), ms);
    const settle = () => clearTimeout(timer);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...results: unknown[]) => {
        settle();
        (callback as (...results: unknown[]) => void)(...results);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) return result.finally(settle);
    settle();
    return result;
  };
}
