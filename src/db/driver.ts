import type { PrismaPg } from '@prisma/adapter-pg';
import type { PrismaPGlite } from 'pglite-prisma-adapter';
import type { ListenerStateHandler } from './listener.ts';

// What each database driver gives src/db/client.ts, which builds the one Database on top of it: the
// PostgreSQL server's (src/db/postgres.ts) or the embedded PGlite's (src/db/pglite.ts).

/**
 * On a server, pg's pool (the listening connection is not in it). PGlite is one connection that runs one
 * query or transaction at a time: `inUse` is 1 while one runs, and the calls queued behind it are `waiting`.
 */
export type PoolStats = { max: number; inUse: number; idle: number; waiting: number };

/** Resolves once `channel` is listened on; the returned function stops listening. */
export type Listen = (
  channel: string,
  onMessage: (payload: string) => void,
  onState?: ListenerStateHandler,
) => Promise<() => Promise<void>>;

export type Driver = {
  kind: 'pglite' | 'postgresql';
  adapter: PrismaPg | PrismaPGlite;
  /** Runs one statement on the driver, prepared under `name` when given (where the driver keeps named statements). */
  read: (text: string, params: readonly unknown[], name?: string) => Promise<unknown[]>;
  listen: Listen;
  poolStats: () => PoolStats;
  close: () => Promise<void>;
};
