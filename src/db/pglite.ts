import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Driver } from './driver.ts';
import { applyMigrations } from './migrate.ts';

// The embedded PostgreSQL (PGlite): one connection in this process, in a folder or in memory; it keeps no
// named statements, and delivers its own notifications at commit, as a server does, never losing them.
// A folder is claimed by one process at a time (a server, or a command): PGlite cannot share one.

export async function openPglite(dataDir: string, migrate: boolean, statementTimeoutMs: number): Promise<Driver> {
  let release = () => {};
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
    release = claimFolder(dataDir);
  }
  try {
    return await openClaimed(dataDir, migrate, statementTimeoutMs, release);
  } catch (error) {
    release();
    throw error;
  }
}

/** A data folder another running process holds: opening it too would lose one side's writes. */
export class DataFolderInUseError extends Error {}

/** The file in a data folder naming the process that holds it (PostgreSQL ignores other files there). */
const CLAIM_FILE = 'lessons-gateway.pid';

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Claims `dataDir` for this process (its pid in CLAIM_FILE, created exclusively), or throws
 * DataFolderInUseError when another running process holds it; the claim of a process that is gone (killed)
 * is taken over. Returns the release, which removes the claim if it is still this process's.
 */
function claimFolder(dataDir: string): () => void {
  const path = join(dataDir, CLAIM_FILE);
  const mine = String(process.pid);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      writeFileSync(path, `${mine}\n`, { flag: 'wx' });
      return () => {
        try {
          if (readFileSync(path, 'utf8').trim() === mine) rmSync(path, { force: true });
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: number;
    try {
      holder = Number(readFileSync(path, 'utf8').trim());
    } catch {
      continue; // released meanwhile: try again
    }
    // This process again (a test opening a folder twice) holds nothing against itself.
    if (holder === process.pid) return () => {};
    if (Number.isSafeInteger(holder) && holder > 0 && isRunning(holder))
      throw new DataFolderInUseError(
        `The data folder ${resolve(dataDir)} is in use by process ${holder} (a running gateway, or a command): ` +
          `the embedded database cannot be shared. Stop it first, or point DATABASE_URL at a PostgreSQL server. ` +
          `If no such process is yours, remove ${resolve(path)}.`,
      );
    rmSync(path, { force: true });
  }
  throw new DataFolderInUseError(`The data folder ${resolve(dataDir)} could not be claimed: another process keeps claiming it`);
}

async function openClaimed(dataDir: string, migrate: boolean, statementTimeoutMs: number, release: () => void): Promise<Driver> {
  // Loaded only here: a gateway on a PostgreSQL server does not carry the embedded engine (docs/performance.md).
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
  const pglite = await PGlite.create(dataDir);
  const calls = countCalls(pglite);
  // A single embedded instance: no other process opens the folder (claimFolder), so no lock is needed.
  if (migrate)
    await applyMigrations(
      {
        exec: async (sql) => void (await pglite.exec(sql)),
        query: async (sql, params) => (await pglite.query<Record<string, unknown>>(sql, params)).rows,
      },
      { lock: false },
    );
  boundWaits(pglite, statementTimeoutMs);
  return {
    kind: 'pglite',
    adapter: new PrismaPGlite(pglite),
    read: async (text, params) => (await pglite.query(text, params as unknown[])).rows,
    listen: async (channel, onMessage, onState = () => {}) => {
      const unlisten = await pglite.listen(channel, onMessage);
      onState('listening', {});
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    poolStats: () => {
      const running = calls();
      return { max: 1, inUse: Math.min(running, 1), idle: running === 0 ? 1 : 0, waiting: Math.max(running - 1, 0) };
    },
    close: async () => {
      try {
        await pglite.close();
      } finally {
        release();
      }
    },
  };
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

/** What a statement that waited too long fails with (src/db/errors.ts reads it as "unavailable"). */
export const EMBEDDED_TIMED_OUT = 'The embedded database did not answer in time';

/**
 * A statement outside a transaction (a token check, /readyz, a read) waits at most `ms` for PGlite's one
 * connection, which a transaction may hold for long: past it the caller gets an error, and the statement,
 * which cannot be taken back from PGlite's queue, runs later unheard. A transaction's own start is
 * bounded by Prisma (src/db/client.ts, maxWait).
 */
function boundWaits(pglite: object, ms: number): void {
  const methods = pglite as Record<'query' | 'exec', (...args: unknown[]) => Promise<unknown>>;
  for (const name of ['query', 'exec'] as const) {
    const original = methods[name].bind(pglite);
    methods[name] = (...args) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(EMBEDDED_TIMED_OUT)), ms);
      });
      const answer = original(...args);
      // Its own failure, once it runs, is nobody's to hear when the caller has already been answered.
      answer.catch(() => {});
      return Promise.race([answer, late]).finally(() => clearTimeout(timer));
    };
  }
}
