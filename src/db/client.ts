import { PrismaClient } from '../generated/prisma/client.ts';
import type { Driver, Listen, PoolStats } from './driver.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import { openReplicas, serverOf, type ReplicaSet, type Server } from './replicas.ts';
import type pg from 'pg';

// The database the gateway works on: Prisma over the chosen driver (a PostgreSQL server, or the embedded
// PGlite), driver-level reads for the hot paths, notifications, and the counts tests and metrics read.

export type Db = PrismaClient;
export type { PoolStats } from './driver.ts';
export { ListenerDeafError } from './listener.ts';
export { DataFolderInUseError } from './pglite.ts';

/**
 * A statement sent straight to the driver: its text, or a named one, which on a server is prepared once
 * per pooled connection and then only executed (one name, one text, always). A name built from a request's
 * shape (`shaped`, e.g. an operation's selection) is used only while the instance has fewer than
 * MAX_SHAPED_STATEMENTS of them: they can combine into many, each costing memory on every connection.
 * With DATABASE_PREPARED_STATEMENTS=0 no name is used at all.
 */
export type Statement = string | { name: string; text: string; shaped?: boolean };

/**
 * A read straight on the driver (pg's pool, or PGlite), bypassing Prisma's query engine: for the few hot
 * reads where that engine's per-query cost was measured to be most of a request's (docs/performance.md).
 * Parameters are always bound, never spliced into the text.
 */
export type SqlRead = <Row>(statement: Statement, params: readonly unknown[]) => Promise<Row[]>;

export const MAX_SHAPED_STATEMENTS = 200;

export type Database = {
  prisma: Db;
  read: SqlRead;
  kind: Driver['kind'];
  /** How many SQL statements have been sent so far (Prisma's and `read`'s): tests and the benchmark read differences. */
  statementCount(): number;
  /** A statement of the instance's own background work (retention's pruning): not a request's, so not counted. */
  background: SqlRead;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /**
   * Hears the database's notifications on `channel` (NOTIFY, pg_notify) until the returned function is
   * called; resolves once listening. On a server: one dedicated connection per instance whatever the
   * number of channels, reconnected with backoff when it drops (notifications sent meanwhile are lost:
   * docs/contract.md, Live lessons). `onState` tells of each drop and return; on PGlite nothing is lost.
   */
  listen: Listen;
  /** The connections queries run on, for the metrics (src/metrics/metrics.ts). */
  poolStats(): PoolStats;
  /** With DATABASE_REPLICA_URLS: the hot standbys that serve queries (src/db/replicas.ts). */
  replicas?: ReplicaSet | undefined;
  close(): Promise<void>;
};

/** The config's database settings (src/config.ts), which a caller may pass as they are. */
export type DatabaseOptions = {
  /** postgresql:// URL (the server, or a pooler in front of it); when absent, an embedded PGlite under `dataDir`. */
  databaseUrl?: string | undefined;
  /** The server itself, when `databaseUrl` names a pooler: the listening connection and migrations use it. */
  databaseDirectUrl?: string | undefined;
  /** False: driver-level reads are sent unnamed (a pooler in transaction mode keeps no named statement). Default true. */
  databasePreparedStatements?: boolean;
  /**
   * How long any wait on the database may last (DATABASE_STATEMENT_TIMEOUT, default 10 s): for a pooled
   * connection, for a transaction to start, for a statement's answer. Past it the caller gets an error
   * src/db/errors.ts reads as "unavailable"; on a server the stalled connection is dropped.
   */
  databaseStatementTimeoutMs?: number;
  /** Hot standbys of `databaseUrl`'s server that serve reads (src/db/replicas.ts); none by default. */
  databaseReplicaUrls?: string[];
  /** A replica whose replay lags more than this is left out (default 5 s). */
  databaseReplicaMaxLagMs?: number;
  /** A folder, or `memory://` for a throwaway embedded database. */
  dataDir: string;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
  /** When tracing is on: a span for each driver-level read (Prisma's statements get Prisma's own). */
  tracing?:
    | {
        sqlStatement: <T>(text: string, run: () => Promise<T>, server?: Server) => Promise<T>;
        /** Told the primary's address: Prisma's statement spans name it unless they ran on a replica (src/db/replicas.ts, prismaServer). */
        databaseServer?: (server: Server) => void;
      }
    | undefined;
};

export async function openDatabase({
  databaseUrl,
  databaseDirectUrl,
  databasePreparedStatements = true,
  databaseStatementTimeoutMs = 10_000,
  databaseReplicaUrls = [],
  databaseReplicaMaxLagMs = 5_000,
  dataDir,
  migrate = true,
  tracing,
}: DatabaseOptions): Promise<Database> {
  const driver = databaseUrl
    ? await openPostgres({
        url: databaseUrl,
        directUrl: databaseDirectUrl ?? databaseUrl,
        migrate,
        statementTimeoutMs: databaseStatementTimeoutMs,
      })
    : await openPglite(dataDir, migrate, databaseStatementTimeoutMs);
  let statements = 0;
  const prisma = countedPrisma(driver, databaseStatementTimeoutMs, () => {
    statements += 1;
  });
  const nameOf = statementNamer(databasePreparedStatements);
  /** A counted, traced read on one server's driver (the primary's, or a replica's pool). */
  const readOn =
    (send: Driver['read'], server: Server | undefined): SqlRead =>
    <Row>(statement: Statement, params: readonly unknown[]) => {
      statements += 1;
      const [text, name] = typeof statement === 'string' ? [statement, undefined] : [statement.text, nameOf(statement)];
      const run = () => send(text, params, name) as Promise<Row[]>;
      return tracing ? tracing.sqlStatement(text, run, server) : run();
    };
  const primaryServer = databaseUrl ? serverOf(databaseUrl) : undefined;
  if (primaryServer) tracing?.databaseServer?.(primaryServer);
  const read = readOn(driver.read, primaryServer);
  const replicas =
    databaseUrl && databaseReplicaUrls.length > 0
      ? await openReplicas({
          urls: databaseReplicaUrls,
          maxLagMs: databaseReplicaMaxLagMs,
          primary: { prisma, read, query: (text) => driver.read(text, []) as Promise<Record<string, unknown>[]> },
          readOver: (pool, server) => readOn(poolRead(pool), server),
          listen: driver.listen,
        })
      : undefined;
  return {
    prisma,
    read,
    kind: driver.kind,
    statementCount: () => statements,
    background: async <Row>(statement: Statement, params: readonly unknown[]) =>
      (await driver.read(typeof statement === 'string' ? statement : statement.text, params)) as Row[],
    ping: async () => {
      await prisma.$queryRaw`SELECT 1`;
    },
    listen: driver.listen,
    poolStats: driver.poolStats,
    replicas,
    close: async () => {
      await replicas?.close();
      await prisma.$disconnect();
      await driver.close();
    },
  };
}

/** Prisma over the driver, telling `onStatement` of each statement it sends. */
function countedPrisma(driver: Driver, statementTimeoutMs: number, onStatement: () => void): PrismaClient {
  // A transaction waits at most the statement timeout to start (PGlite's one connection included); once
  // started it may run long (a lesson may end with 10,000 concept results), each statement bounded on a server.
  const prisma = new PrismaClient({
    adapter: driver.adapter,
    log: [{ emit: 'event', level: 'query' }],
    transactionOptions: { maxWait: statementTimeoutMs, timeout: 60_000 },
  });
  // The client's type only lists `$on('query')` when its log option is a literal type; it is set above.
  (prisma as unknown as { $on(event: 'query', listener: () => void): void }).$on('query', onStatement);
  return prisma;
}

/** The name a named statement is sent under, or none (see `Statement`: shaped names are capped). */
function statementNamer(prepared: boolean): (statement: Exclude<Statement, string>) => string | undefined {
  const shapedNames = new Set<string>();
  return (statement) => {
    if (!prepared) return undefined;
    if (!statement.shaped || shapedNames.has(statement.name)) return statement.name;
    if (shapedNames.size >= MAX_SHAPED_STATEMENTS) return undefined;
    shapedNames.add(statement.name);
    return statement.name;
  };
}

/** A driver-level read on a pool of pg (a replica's), named statements prepared once per connection. */
function poolRead(pool: pg.Pool): Driver['read'] {
  return async (text, params, name) => {
    const values = params as unknown[];
    const { rows } = await pool.query<Record<string, unknown>>(name ? { name, text, values } : { text, values });
    return rows;
  };
}
