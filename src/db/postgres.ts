import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Driver } from './driver.ts';
import { sharedListener } from './listener.ts';
import { applyMigrations, type SqlRunner } from './migrate.ts';

// A PostgreSQL server: migrations under an advisory lock (several instances may start at once), pg's pool
// for queries (perhaps through a pooler), and one listening connection outside it (src/db/listener.ts).

const POOL_SIZE = 10;

/**
 * `url` serves the queries (the server, or a pooler in front of it); `directUrl` the migrations and the
 * listening connection, which need a session of their own on the server itself (the same URL without a pooler).
 */
export async function openPostgres({ url, directUrl, migrate }: { url: string; directUrl: string; migrate: boolean }): Promise<Driver> {
  if (migrate) {
    const client = new pg.Client({ connectionString: directUrl });
    await client.connect();
    try {
      await applyMigrations(pgRunner(client), { lock: true });
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection (database restarted) must not crash the process.
  pool.on('error', () => {});
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
