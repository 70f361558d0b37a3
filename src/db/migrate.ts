import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../paths.ts';

// Applies prisma/migrations at start, recording them in Prisma's own `_prisma_migrations` table so that
// `prisma migrate deploy` and this runner agree on what is applied.

export type SqlRunner = {
  exec(sql: string): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
};

export const migrationsDir = join(projectRoot, 'prisma', 'migrations');

// Any constant: every instance starting at once takes the same lock and waits its turn (applyMigrations).
const MIGRATION_LOCK_KEY = 72_707_369;

type Migration = { name: string; sql: string; checksum: string };

function readMigrations(): Migration[] {
  if (!existsSync(migrationsDir)) return [];
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(migrationsDir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(migrationsDir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/**
 * One transaction per pending migration, each taking the lock (held until its commit) and reading afresh
 * what is applied: instances starting at once apply each migration once, in order. A transaction-level
 * lock, not a session's, so that nothing here outlives a transaction (a pooler in transaction mode keeps
 * no session state, and a session lock taken through one could be left held on its server connection).
 */
export async function applyMigrations(db: SqlRunner, { lock }: { lock: boolean }): Promise<string[]> {
  const migrations = readMigrations();
  const applied: string[] = [];
  for (;;) {
    let next: Migration | undefined;
    await db.exec('BEGIN');
    try {
      if (lock) await db.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
        "id" VARCHAR(36) PRIMARY KEY NOT NULL,
        "checksum" VARCHAR(64) NOT NULL,
        "finished_at" TIMESTAMPTZ,
        "migration_name" VARCHAR(255) NOT NULL,
        "logs" TEXT,
        "rolled_back_at" TIMESTAMPTZ,
        "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "applied_steps_count" INTEGER NOT NULL DEFAULT 0
      )`);
      const rows = await db.query(
        'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      );
      const done = new Set(rows.map((row) => String(row.migration_name)));
      next = migrations.find((migration) => !done.has(migration.name));
      if (next) {
        await db.exec(next.sql);
        await db.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), 1)`,
          [randomUUID(), next.checksum, next.name],
        );
      }
      await db.exec('COMMIT');
    } catch (error) {
      await db.exec('ROLLBACK').catch(() => {});
      if (!next) throw error;
      throw new Error(`Migration ${next.name} failed: ${(error as Error).message}`, { cause: error });
    }
    if (!next) return applied;
    applied.push(next.name);
  }
}
