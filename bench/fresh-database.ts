import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

// A database of the benchmark's own, removed afterwards: a new database on the PostgreSQL server of
// DATABASE_URL (the URL only serves to reach the server as an admin), or an embedded PGlite folder.

export const DEFAULT_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

export type FreshDatabase =
  | { kind: 'postgresql'; url: string; describe: string; remove(): Promise<void> }
  | { kind: 'pglite'; dataDir: string; baselineDataDir: string; describe: string; remove(): Promise<void> };

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createPostgresDatabase(adminUrl: string): Promise<FreshDatabase> {
  const name = `lgw_bench_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgresql',
    url: url.toString(),
    describe: `PostgreSQL database ${name} on ${url.host}`,
    // FORCE: a child that died mid-run may still hold connections.
    remove: () => withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

export async function createPgliteFolder(): Promise<FreshDatabase> {
  const root = await mkdtemp(join(tmpdir(), 'lgw-bench-'));
  return {
    kind: 'pglite',
    dataDir: join(root, 'data'),
    // PGlite admits one process per folder: the baseline server reads a copy.
    baselineDataDir: join(root, 'baseline-data'),
    describe: `embedded PGlite in ${root}`,
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
