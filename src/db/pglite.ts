import { mkdirSync } from 'node:fs';
import type { Driver } from './driver.ts';
import { applyMigrations } from './migrate.ts';

// The embedded PostgreSQL (PGlite): one connection in this process, in a folder or in memory; it keeps no
// named statements, and delivers its own notifications at commit, as a server does, never losing them.

export async function openPglite(dataDir: string, migrate: boolean): Promise<Driver> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  // Loaded only here: a gateway on a PostgreSQL server does not carry the embedded engine (docs/performance.md).
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
    close: () => pglite.close(),
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
