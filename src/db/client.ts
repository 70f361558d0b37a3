import { mkdirSync } from 'node:fs';
import { PrismaPg } from '@prisma/adapter-pg';
import type { PrismaPGlite } from 'pglite-prisma-adapter';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import { applyMigrations, type SqlRunner } from './migrate.ts';

export type Db = PrismaClient;

/**
 * A read straight on the driver (pg's pool, or PGlite), bypassing Prisma's query engine: for the few hot
 * reads where that engine's per-query cost was measured to be most of a request's (README, Performance).
 * Parameters are always bound, never spliced into the text.
 */
export type SqlRead = <Row>(text: string, params: readonly unknown[]) => Promise<Row[]>;

export type Database = {
  prisma: Db;
  read: SqlRead;
  kind: 'pglite' | 'postgresql';
  /** How many SQL statements Prisma has sent so far: tests and the benchmark read differences. */
  statementCount(): number;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** postgresql:// URL; when absent, an embedded PGlite under `dataDir`. */
  databaseUrl?: string | undefined;
  /** A folder, or `memory://` for a throwaway embedded database. */
  dataDir: string;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.migrate ?? true)
    : openPglite(options.dataDir, options.migrate ?? true);
}

async function openPostgres(connectionString: string, migrate: boolean): Promise<Database> {
  if (migrate) {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await applyMigrations(pgRunner(client), { lock: true });
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection (database restarted) must not crash the process.
  pool.on('error', () => {});
  return withPrisma(
    'postgresql',
    new PrismaPg(pool),
    async <Row>(text: string, params: readonly unknown[]) => (await pool.query(text, params as unknown[])).rows as Row[],
    () => pool.end(),
  );
}

async function openPglite(dataDir: string, migrate: boolean): Promise<Database> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  // Loaded only here: a gateway on a PostgreSQL server does not carry the embedded engine (~30 MB resident).
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
  const pglite = await PGlite.create(dataDir);
  // A single embedded instance: no other process can open the folder, so no lock is needed.
  if (migrate)
    await applyMigrations(
      {
        exec: async (sql) => void (await pglite.exec(sql)),
        query: async (sql, params) => (await pglite.query<Record<string, unknown>>(sql, params)).rows,
      },
      { lock: false },
    );
  return withPrisma(
    'pglite',
    new PrismaPGlite(pglite),
    async (text, params) => (await pglite.query(text, params as unknown[])).rows,
    () => pglite.close(),
  );
}

function pgRunner(client: pg.Client): SqlRunner {
  return {
    exec: async (sql) => void (await client.query(sql)),
    query: async (sql, params) => (await client.query<Record<string, unknown>>(sql, params as unknown[])).rows,
  };
}

function withPrisma(
  kind: Database['kind'],
  adapter: PrismaPg | PrismaPGlite,
  read: (text: string, params: readonly unknown[]) => Promise<unknown[]>,
  closeDriver: () => Promise<void>,
): Database {
  const prisma = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  let statements = 0;
  // The client's type only lists `$on('query')` when its log option is a literal type; it is set above.
  (prisma as unknown as { $on(event: 'query', listener: () => void): void }).$on('query', () => {
    statements += 1;
  });
  return {
    prisma,
    read: <Row>(text: string, params: readonly unknown[]) => {
      statements += 1;
      return read(text, params) as Promise<Row[]>;
    },
    kind,
    statementCount: () => statements,
    ping: async () => {
      await prisma.$queryRaw`SELECT 1`;
    },
    close: async () => {
      await prisma.$disconnect();
      await closeDriver();
    },
  };
}
