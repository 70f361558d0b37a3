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
 * Parameters are always bound, never spliced into the text. With a `name`, on a server, the statement is
 * prepared once per pooled connection and then only executed (one name, one text, always).
 */
export type SqlRead = <Row>(text: string, params: readonly unknown[], name?: string) => Promise<Row[]>;

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
   * called; resolves once listening. On a server: one dedicated connection per instance whatever the
   * number of channels, reconnected with backoff when it drops (notifications sent meanwhile are lost:
   * README, Live lessons). `onState` says 'listening' once the channel is listened on, then tells of each
   * drop and return; on PGlite nothing is ever lost.
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
  return { ...database, read: (text, params, name) => tracing.sqlStatement(text, () => read(text, params, name)) };
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
  const listener = sharedListener(connectionString);
  return withPrisma(
    'postgresql',
    new PrismaPg(pool),
    // A named statement is parsed and planned once per pooled connection, then only executed.
    async (text, params, name) => {
      const { rows } = await pool.query<Record<string, unknown>>(
        name ? { name, text, values: params as unknown[] } : { text, values: params as unknown[] },
      );
      return rows;
    },
    async () => {
      await listener.close();
      await pool.end();
    },
    async (channel, onMessage, onState = () => {}) => {
      const subscription = { channel, onMessage, onState };
      await listener.add(subscription);
      return () => listener.remove(subscription);
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
    // PGlite has no named statements to keep: it runs in this process, one query at a time.
    async (text, params) => (await pglite.query(text, params as unknown[])).rows,
    () => pglite.close(),
    // The embedded database delivers its own notifications at commit, as a server does, and never loses them.
    async (channel, onMessage, onState = () => {}) => {
      const unlisten = await pglite.listen(channel, onMessage);
      onState('listening', {});
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

type Subscription = { channel: string; onMessage: (payload: string) => void; onState: ListenerStateHandler };

type Deferred = { promise: Promise<void>; resolve: () => void };
function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
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

/**
 * The one listening connection of an instance (a pg.Client, outside the pool), shared by every channel
 * it listens on: each `listen` adds a channel to it rather than opening a connection of its own. On
 * losing its connection it opens another and listens again on every channel, waiting 100 ms, then twice
 * as long each failed try, up to 5 s; every subscriber is told of each drop and return. Changes run one
 * at a time, so a channel added while the connection is being made is not missed.
 */
function sharedListener(connectionString: string) {
  const subscriptions = new Set<Subscription>();
  let client: pg.Client | null = null;
  let listened = new Set<string>();
  let reconnecting = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = 100;
  /** Settles when the connection is back: a subscriber added while it is down waits for it. */
  let back: Deferred | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  };
  const channels = () => new Set([...subscriptions].map((subscription) => subscription.channel));
  const tell = (state: 'lost' | 'listening', details: { error?: unknown; retryInMs?: number }) => {
    for (const subscription of [...subscriptions]) subscription.onState(state, details);
  };
  const release = (which: pg.Client) => {
    which.removeAllListeners('end');
    which.on('error', () => {});
    void which.end().catch(() => {});
  };

  const connect = async () => {
    if (subscriptions.size === 0) return;
    const next = new pg.Client({ connectionString, application_name: LISTENER_APPLICATION_NAME });
    next.on('notification', (message) => {
      for (const subscription of [...subscriptions])
        if (subscription.channel === message.channel) subscription.onMessage(message.payload ?? '');
    });
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next, undefined));
    const wanted = channels();
    try {
      await next.connect();
      for (const channel of wanted) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      release(next);
      throw error;
    }
    client = next;
    listened = wanted;
    reconnecting = false;
    delay = 100;
    back?.resolve();
    back = null;
    tell('listening', {});
  };
  const retry = () => {
    const wait = delay;
    delay = Math.min(delay * 2, 5_000);
    retryTimer = setTimeout(() => {
      serially(connect).catch((error: unknown) => {
        if (!reconnecting) return;
        tell('lost', { error, retryInMs: delay });
        retry();
      });
    }, wait);
  };
  const lost = (which: pg.Client, error: unknown) => {
    if (client !== which) return;
    client = null;
    listened = new Set();
    reconnecting = true;
    release(which);
    tell('lost', { error, retryInMs: delay });
    retry();
  };
  /** No subscriber left: the connection is closed, and the next subscriber opens a new one. */
  const shutDown = async () => {
    clearTimeout(retryTimer);
    reconnecting = false;
    back?.resolve();
    back = null;
    const current = client;
    client = null;
    listened = new Set();
    if (current) {
      current.removeAllListeners('end');
      current.on('error', () => {});
      await current.end().catch(() => {});
    }
  };

  return {
    /**
     * Resolves once the subscription's channel is listened on (when the connection is down, once it is
     * back). The first subscriber's failure to connect is thrown, and nothing retries it.
     */
    async add(subscription: Subscription): Promise<void> {
      // Wrapped: a promise returned from the queued work would be awaited by the queue itself.
      const { back: comeBack } = await serially(async (): Promise<{ back?: Promise<void> }> => {
        subscriptions.add(subscription);
        try {
          if (client) {
            if (!listened.has(subscription.channel)) {
              await client.query(`LISTEN ${pg.escapeIdentifier(subscription.channel)}`);
              listened.add(subscription.channel);
            }
            subscription.onState('listening', {});
          } else if (reconnecting) return { back: (back ??= deferred()).promise };
          else await connect();
        } catch (error) {
          subscriptions.delete(subscription);
          throw error;
        }
        return {};
      });
      await comeBack;
    },
    async remove(subscription: Subscription): Promise<void> {
      await serially(async () => {
        if (!subscriptions.delete(subscription)) return;
        if (subscriptions.size === 0) await shutDown();
        else if (client && listened.has(subscription.channel) && !channels().has(subscription.channel)) {
          listened.delete(subscription.channel);
          await client.query(`UNLISTEN ${pg.escapeIdentifier(subscription.channel)}`).catch(() => {});
        }
      });
    },
    /** Closes the connection whoever still listens (the database is closing). */
    close: () =>
      serially(async () => {
        subscriptions.clear();
        await shutDown();
      }),
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
  read: (text: string, params: readonly unknown[], name?: string) => Promise<unknown[]>,
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
    read: <Row>(text: string, params: readonly unknown[], name?: string) => {
      statements += 1;
      return read(text, params, name) as Promise<Row[]>;
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
