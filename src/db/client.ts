import { mkdirSync } from 'node:fs';
import { PrismaPg } from '@prisma/adapter-pg';
import type { PrismaPGlite } from 'pglite-prisma-adapter';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { Tracing } from '../telemetry/tracing.ts';
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
  /**
   * Hears the database's notifications on `channel` (NOTIFY, pg_notify) until the returned function is
   * called. On a server: one dedicated connection per instance, reconnected with backoff when it drops
   * (notifications sent meanwhile are lost: README, Live lessons); `onState` tells of each drop and return.
   */
  listen(channel: string, onMessage: (payload: string) => void, onState?: ListenerStateHandler): Promise<() => Promise<void>>;
  /** The connections queries run on, for the metrics (src/metrics/metrics.ts). */
  poolStats(): PoolStats;
  close(): Promise<void>;
};

/**
 * On a server, pg's pool (the listening connection is not in it). PGlite is one connection that runs one
 * query or transaction at a time: `inUse` is 1 while one runs, and the calls queued behind it are `waiting`.
 */
export type PoolStats = { max: number; inUse: number; idle: number; waiting: number };

export type ListenerStateHandler = (state: 'lost' | 'listening', details: { error?: unknown; retryInMs?: number }) => void;

/** The dedicated listening connection's name in pg_stat_activity (tests find it there). */
export const LISTENER_APPLICATION_NAME = 'lessons-gateway-listener';

export type DatabaseOptions = {
  /** postgresql:// URL; when absent, an embedded PGlite under `dataDir`. */
  databaseUrl?: string | undefined;
  /** A folder, or `memory://` for a throwaway embedded database. */
  dataDir: string;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
  /** When tracing is on: a span for each driver-level read (Prisma's statements get Prisma's own). */
  tracing?: Pick<Tracing, 'sqlStatement'> | undefined;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.migrate ?? true)
    : await openPglite(options.dataDir, options.migrate ?? true);
  const tracing = options.tracing;
  if (!tracing) return database;
  const read = database.read;
  return { ...database, read: (text, params) => tracing.sqlStatement(text, () => read(text, params)) };
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
  const max = 10;
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection (database restarted) must not crash the process.
  pool.on('error', () => {});
  const listeners: Listener[] = [];
  return withPrisma(
    'postgresql',
    new PrismaPg(pool),
    async <Row>(text: string, params: readonly unknown[]) => (await pool.query(text, params as unknown[])).rows as Row[],
    async () => {
      await Promise.all(listeners.map((listener) => listener.stop()));
      await pool.end();
    },
    async (channel, onMessage, onState) => {
      const listener = await startListener(connectionString, channel, onMessage, onState);
      listeners.push(listener);
      return () => listener.stop();
    },
    () => ({ max, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  );
}

async function openPglite(dataDir: string, migrate: boolean): Promise<Database> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  // Loaded only here: a gateway on a PostgreSQL server does not carry the embedded engine (~30 MB resident).
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
  const pglite = await PGlite.create(dataDir);
  const calls = countCalls(pglite);
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
    // The embedded database delivers its own notifications at commit, as a server does.
    async (channel, onMessage) => {
      const unlisten = await pglite.listen(channel, onMessage);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    () => {
      const running = calls();
      return { max: 1, inUse: Math.min(running, 1), idle: running === 0 ? 1 : 0, waiting: Math.max(running - 1, 0) };
    },
  );
}

/**
 * Counts the calls to PGlite's query, exec and transaction that have not finished: each takes PGlite's
 * one connection in turn (its own lock), so all but one of them wait. A transaction's own queries run
 * inside its call and do not count again.
 */
function countCalls(pglite: object): () => number {
  let running = 0;
  const methods = pglite as Record<'query' | 'exec' | 'transaction', (...args: unknown[]) => Promise<unknown>>;
  for (const name of ['query', 'exec', 'transaction'] as const) {
    const original = methods[name].bind(pglite);
    methods[name] = async (...args) => {
      running += 1;
      try {
        return await original(...args);
      } finally {
        running -= 1;
      }
    };
  }
  return () => running;
}

type Listener = { stop(): Promise<void> };

/**
 * A pg.Client that runs LISTEN, and on losing its connection opens another, waiting 100 ms, then twice
 * as long each failed try, up to 5 s. It returns once the first LISTEN succeeded.
 */
async function startListener(
  connectionString: string,
  channel: string,
  onMessage: (payload: string) => void,
  onState: ListenerStateHandler = () => {},
): Promise<Listener> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = 100;

  const connect = async () => {
    const next = new pg.Client({ connectionString, application_name: LISTENER_APPLICATION_NAME });
    next.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next, undefined));
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      next.removeAllListeners('end');
      next.on('error', () => {});
      void next.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await next.end();
      return;
    }
    client = next;
    delay = 100;
    onState('listening', {});
  };
  const retry = () => {
    if (stopped) return;
    const wait = delay;
    delay = Math.min(delay * 2, 5_000);
    retryTimer = setTimeout(() => {
      connect().catch((error: unknown) => {
        onState('lost', { error, retryInMs: delay });
        retry();
      });
    }, wait);
  };
  const lost = (which: pg.Client, error: unknown) => {
    if (stopped || client !== which) return;
    client = null;
    which.removeAllListeners('end');
    which.on('error', () => {});
    void which.end().catch(() => {});
    onState('lost', { error, retryInMs: delay });
    retry();
  };

  await connect();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(retryTimer);
      const current = client;
      client = null;
      if (current) await current.end().catch(() => {});
    },
  };
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
  listen: Database['listen'],
  poolStats: Database['poolStats'],
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
    listen,
    poolStats,
    close: async () => {
      await prisma.$disconnect();
      await closeDriver();
    },
  };
}
