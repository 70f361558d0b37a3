import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Driver } from './driver.ts';
import { sharedListener } from './listener.ts';
import { applyMigrations, type SqlRunner } from './migrate.ts';

// A PostgreSQL server: migrations under an advisory lock (several instances may start at once), pg's pool
// for queries, and one listening connection outside it (src/db/listener.ts).

const POOL_SIZE = 10;

export async function openPostgres(connectionString: string, migrate: boolean): Promise<Driver> {
  if (migrate) {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await applyMigrations(pgRunner(client), { lock: true });
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({ connectionString, max: POOL_SIZE, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection (database restarted) must not crash the process.
  pool.on('error', () => {});
  const listener = sharedListener(connectionString);
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
