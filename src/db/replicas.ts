import { AsyncLocalStorage } from 'node:async_hooks';
import { PrismaPg } from '@prisma/adapter-pg';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { Db, SqlRead } from './client.ts';
import type { Listen } from './driver.ts';

// Reads on streaming replicas (docs/operations.md, Read replicas): each replica's replay position and lag, polled
// in the background; the floor each read needs (its caller's last write, the lesson events this instance delivered,
// the public catalogue's version), known in memory; and a request's reader, which picks a replica that has it.

/** A write-ahead log position (pg_lsn), as a number that compares. */
export type Lsn = bigint;
export const parseLsn = (text: string): Lsn => {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};

export type Server = { address: string; port: number };
export const serverOf = (url: string): Server => {
  const { hostname, port } = new URL(url);
  return { address: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 5432) };
};

/** The server a replica's Prisma statement runs on, while it runs: its trace span names it (src/telemetry/sdk.ts). */
export const prismaServer = new AsyncLocalStorage<Server>();

/** The channel on which an instance tells the others a caller's last write: `<user id>:<lsn>`. */
export const CALLER_WRITES_CHANNEL = 'lgw_caller_writes';
/**
 * A replica's pooled connections: a read waits at most this to connect, and a replica statement at most
 * READ_TIMEOUT_MS (the client stops waiting, the replica cancels it); then the primary answers it.
 */
const CONNECT_TIMEOUT_MS = 2_000;
const READ_TIMEOUT_MS = 3_000;
/** A status poll that takes longer than this counts as the replica being down. */
const POLL_TIMEOUT_MS = 1_500;
const REPLICA_POOL_SIZE = 10;
/**
 * How long an instance waits to hear its own notification of a caller's write before answering the write (a
 * millisecond or so while it listens; not at all while its listening connection is down).
 */
const ECHO_TIMEOUT_MS = 2_000;

const REPLICA_STATUS =
  "SELECT pg_is_in_recovery() AS standby, COALESCE(pg_last_wal_replay_lsn(), '0/0')::text AS lsn, " +
  '(SELECT version::text FROM public_catalogue_version WHERE id = 1) AS catalogue';

export type Replica = {
  /** `host:port`, for the metrics and logs. */
  label: string;
  server: Server;
  pool: pg.Pool;
  prisma: Db;
  read: SqlRead;
  /** Answered its last poll as a standby. */
  up: boolean;
  replayLsn: Lsn;
  lagMs: number;
  catalogue: bigint | undefined;
};

/**
 * What a read needs of a replica: its caller's last write (a user id), and for a read whose answer may be tagged
 * public, the catalogue's version the tag names (null: no tag; undefined: a version nobody can vouch for, so the primary).
 */
export type ReadNeeds = { caller: number | undefined; catalogue: string | null | undefined };

/** A request's reads: the first picks a server (a replica with what it needs, else the primary), and later ones only move forward. */
export type RequestReader = {
  prisma: () => Db;
  read: SqlRead;
  /** The reads that follow read classroom activity `id`: at least as new as the events this instance delivered for it. */
  readsClassroomActivity: (id: number) => void;
};

type Primary = { prisma: Db; read: SqlRead; query: (text: string) => Promise<Record<string, unknown>[]> };

export type ReplicaSetOptions = {
  urls: string[];
  maxLagMs: number;
  primary: Primary;
  /** Builds a counted, traced SqlRead over a replica's pool (src/db/client.ts). */
  readOver: (pool: pg.Pool, server: Server) => SqlRead;
  listen: Listen;
};

/** Opens the replicas' pools and clients, polls them once, and keeps polling in the background until closed. */
export async function openReplicas(options: ReplicaSetOptions): Promise<ReplicaSet> {
  const set = new ReplicaSet(options);
  await set.start(options.listen);
  return set;
}

type EventFloor = { deliveredAt: number; lsn?: Lsn };

export class ReplicaSet {
  readonly replicas: Replica[];
  readonly maxLagMs: number;
  /** Reads sent so far, by target. */
  readonly reads = { primary: 0, replica: 0 };
  private readonly primary: Primary;
  private readonly callerFloors: LRUCache<number, Lsn>;
  /** A classroom activity's floor: `lsn` once a primary position sampled after the delivery is known; until then, the primary. */
  private readonly eventFloors: LRUCache<number, EventFloor>;
  private readonly intervalMs: number;
  private readonly samples: { at: number; lsn: Lsn }[] = [];
  private readonly echoes = new Map<string, () => void>();
  private stopListening: () => Promise<void> = async () => {};
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private turn = 0;
  private listening = false;
  /** Told each time a replica is left out (`inUse` false) or taken back: the app logs it (src/plugins/listening.ts). */
  onChange: (replica: Replica, inUse: boolean) => void = () => {};

  constructor({ urls, maxLagMs, primary, readOver }: ReplicaSetOptions) {
    this.primary = primary;
    this.maxLagMs = maxLagMs;
    this.replicas = urls.map((url) => openReplica(url, primary, readOver));
    // Past this, a usable replica (lag within the limit, polled a moment ago) has replayed any floor: it may be forgotten.
    const ttl = maxLagMs + 30_000;
    this.callerFloors = new LRUCache({ max: 100_000, ttl });
    this.eventFloors = new LRUCache({ max: 100_000, ttl });
    this.intervalMs = Math.min(1_000, Math.max(50, Math.floor(maxLagMs / 4)));
  }

  async start(listen: ReplicaSetOptions['listen']): Promise<void> {
    this.stopListening = await listen(
      CALLER_WRITES_CHANNEL,
      (payload) => this.heardWrite(payload),
      (state) => void (this.listening = state === 'listening'),
    );
    await this.poll();
    const loop = () => {
      this.timer = setTimeout(() => void this.poll().finally(() => this.stopped || loop()), this.intervalMs);
      this.timer.unref();
    };
    loop();
  }

  /** Reachable, a standby, and within DATABASE_REPLICA_MAX_LAG at its last poll. */
  readonly usable = (replica: Replica): boolean => replica.up && replica.lagMs <= this.maxLagMs;

  /** A request's reader (src/graphql/replica-reads.ts): a query's, with what its caller and its answer need. */
  reader(needs: ReadNeeds): RequestReader {
    let floor = needs.caller === undefined ? undefined : this.callerFloors.get(needs.caller);
    const catalogue = typeof needs.catalogue === 'string' ? BigInt(needs.catalogue) : undefined;
    let chosen: Replica | 'primary' | undefined = needs.catalogue === undefined ? 'primary' : undefined;
    const holds = (replica: Replica) =>
      this.usable(replica) &&
      (floor === undefined || replica.replayLsn >= floor) &&
      (catalogue === undefined || (replica.catalogue !== undefined && replica.catalogue >= catalogue));
    // Once on the primary, or once the chosen replica no longer holds what is needed, the request stays on the primary: never backwards.
    const pick = (): Replica | 'primary' => {
      if (chosen === 'primary') return chosen;
      if (chosen) return holds(chosen) ? chosen : (chosen = 'primary');
      const candidates = this.replicas.filter(holds);
      chosen = candidates.length === 0 ? 'primary' : candidates[this.turn++ % candidates.length]!;
      return chosen;
    };
    const read: SqlRead = async <Row>(statement: Parameters<SqlRead>[0], params: readonly unknown[]) => {
      const target = pick();
      if (target !== 'primary') {
        this.reads.replica += 1;
        try {
          return await target.read<Row>(statement, params);
        } catch (error) {
          // Not this replica's to answer (down, hung, or a conflict with its recovery): the primary answers.
          if (replicaTrouble(error)) target.up = false;
          chosen = 'primary';
        }
      }
      this.reads.primary += 1;
      return this.primary.read<Row>(statement, params);
    };
    return {
      read,
      prisma: () => {
        const target = pick();
        this.reads[target === 'primary' ? 'primary' : 'replica'] += 1;
        return target === 'primary' ? this.primary.prisma : target.prisma;
      },
      readsClassroomActivity: (id) => {
        const event = this.eventFloors.get(id);
        if (!event) return;
        if (event.lsn === undefined) chosen = 'primary';
        else if (floor === undefined || event.lsn > floor) floor = event.lsn;
      },
    };
  }

  /** After a caller's mutation has committed: its position, kept here and told every instance (which this one waits to hear). */
  async callerWrote(userId: number): Promise<void> {
    const [row] = await this.primary.read<{ payload: string }>(
      "WITH here AS (SELECT $2::text || ':' || pg_current_wal_insert_lsn()::text AS payload) SELECT payload, pg_notify($1, payload) FROM here",
      [CALLER_WRITES_CHANNEL, String(userId)],
    );
    const payload = row!.payload;
    this.raise(userId, parseLsn(payload.split(':')[1]!));
    if (!this.listening) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.echoes.set(payload, resolve);
      timer = setTimeout(resolve, ECHO_TIMEOUT_MS);
    });
    clearTimeout(timer);
    this.echoes.delete(payload);
  }

  /** The event hub is about to deliver an event of classroom activity `id` (src/core/event-hub.ts). */
  delivered(id: number): void {
    this.eventFloors.set(id, { deliveredAt: Date.now() });
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.stopListening();
    for (const replica of this.replicas) {
      await replica.prisma.$disconnect();
      await replica.pool.end();
    }
  }

  private heardWrite(payload: string): void {
    const [caller, lsn] = payload.split(':', 2);
    if (!caller || !lsn || !/^\d+$/.test(caller) || !/^[0-9A-F]+\/[0-9A-F]+$/i.test(lsn)) return;
    this.raise(Number(caller), parseLsn(lsn));
    this.echoes.get(payload)?.();
  }

  private raise(caller: number, lsn: Lsn): void {
    const known = this.callerFloors.get(caller);
    if (known === undefined || lsn > known) this.callerFloors.set(caller, lsn);
  }

  /** One round: the primary's position first, then each replica's replay (so that a replica at or past it lags 0). */
  private async poll(): Promise<void> {
    const at = Date.now();
    try {
      const [row] = await withTimeout(this.primary.query('SELECT pg_current_wal_insert_lsn()::text AS lsn'), POLL_TIMEOUT_MS);
      const lsn = parseLsn(String(row!.lsn));
      this.samples.push({ at, lsn });
      while (this.samples.length > 1 && this.samples[0]!.at < at - this.maxLagMs - 4 * this.intervalMs) this.samples.shift();
      // Sampled after the delivery: at or past the delivered event's commit.
      for (const [, floor] of this.eventFloors.entries()) if (floor.lsn === undefined && floor.deliveredAt < at) floor.lsn = lsn;
    } catch {
      // The primary's own trouble is for its reads to meet; the replicas keep their last standing.
    }
    await Promise.all(this.replicas.map((replica) => this.check(replica)));
  }

  private async check(replica: Replica): Promise<void> {
    const was = this.usable(replica);
    await this.read(replica);
    if (this.usable(replica) !== was) this.onChange(replica, !was);
  }

  private async read(replica: Replica): Promise<void> {
    try {
      const { rows } = await withTimeout(
        replica.pool.query<{ standby: boolean; lsn: string; catalogue: string | null }>(REPLICA_STATUS),
        POLL_TIMEOUT_MS,
      );
      const row = rows[0]!;
      replica.up = row.standby;
      replica.replayLsn = parseLsn(row.lsn);
      replica.catalogue = row.catalogue === null ? undefined : BigInt(row.catalogue);
      replica.lagMs = lagOf(replica.replayLsn, this.samples, Date.now());
    } catch {
      replica.up = false;
    }
  }
}

type Log = (fields: Record<string, unknown>, message: string) => void;

/** Logs each replica left out (and those out at start) and taken back. */
export function logReplicaChanges(replicas: ReplicaSet, log: { info: Log; warn: Log }): void {
  const say = (replica: Replica, inUse: boolean) =>
    log[inUse ? 'info' : 'warn'](
      { replica: replica.label, reachable: replica.up, lagMs: Number.isFinite(replica.lagMs) ? replica.lagMs : null },
      inUse ? 'read replica taken back' : 'read replica left out: its reads go to the primary',
    );
  replicas.onChange = say;
  for (const replica of replicas.replicas) if (!replicas.usable(replica)) say(replica, false);
}

function openReplica(url: string, primary: Primary, readOver: ReplicaSetOptions['readOver']): Replica {
  const server = serverOf(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: REPLICA_POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: READ_TIMEOUT_MS,
    statement_timeout: READ_TIMEOUT_MS,
    application_name: 'lessons-gateway-replica-reads',
  });
  // A replica going away must not crash the process: its reads go to the primary meanwhile.
  pool.on('error', () => {});
  const replica: Replica = {
    label: `${server.address}:${server.port}`,
    server,
    pool,
    prisma: undefined as unknown as Db,
    read: readOver(pool, server),
    up: false,
    replayLsn: 0n,
    lagMs: Number.POSITIVE_INFINITY,
    catalogue: undefined,
  };
  const client = new PrismaClient({ adapter: new PrismaPg(pool) });
  // A Prisma read the replica fails is asked of the primary, as a driver-level read is.
  replica.prisma = client.$extends({
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          try {
            return await prismaServer.run(replica.server, () => query(args));
          } catch (error) {
            if (replicaTrouble(error)) replica.up = false;
            const delegate = (primary.prisma as unknown as Record<string, Record<string, (args: unknown) => Promise<unknown>>>)[
              model.charAt(0).toLowerCase() + model.slice(1)
            ]!;
            return delegate[operation]!(args);
          }
        },
      },
    },
  }) as unknown as Db;
  return replica;
}

/** An error of the replica rather than of the statement: no SQLSTATE, or a connection, resource or recovery one. */
function replicaTrouble(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code) || /^(08|53|57|58|40|XX)/.test(code);
}

/**
 * How far `replay` is behind what the primary had written, from the primary's sampled positions: 0 at or past
 * the latest; else the time since the latest sample it had reached (an upper bound, by at most one interval);
 * behind all of them, unbounded.
 */
export function lagOf(replay: Lsn, samples: readonly { at: number; lsn: Lsn }[], now: number): number {
  const latest = samples.at(-1);
  if (!latest) return Number.POSITIVE_INFINITY;
  if (replay >= latest.lsn) return 0;
  for (let index = samples.length - 2; index >= 0; index -= 1) if (samples[index]!.lsn <= replay) return now - samples[index]!.at;
  // Behind every position sampled in the window: how far is not known, so more than any limit.
  return Number.POSITIVE_INFINITY;
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
