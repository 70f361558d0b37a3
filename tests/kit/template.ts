import { randomBytes } from 'node:crypto';
import { statfsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

// Copying a database tests start from, made once per run by tests/kit/global-setup.ts: copies are cheap
// (a data folder, or CREATE DATABASE ... TEMPLATE) where migrating and loading the fixture each time was
// not. docs/testing.md describes both templates and the kit's schema in the fixture one.

/** Where the templates are: PGlite data folders, or databases on the server DATABASE_URL names. */
export type Template =
  | { kind: 'pglite'; fixtureDataDir: string; emptyDataDir: string }
  | {
      kind: 'postgresql';
      fixtureName: string;
      emptyName: string;
      /** The pooler pass's PgBouncer (`host:port`, tests/kit/pgbouncer.ts): every database is used through it. */
      pooler?: string | undefined;
    };

// What the global setup hands each worker (`inject('lgwTemplate')`).
declare module 'vitest' {
  export interface ProvidedContext {
    lgwTemplate: Template;
    /** The npm scripts' steps before node the global setup ran (tests/kit/npm-scripts.ts). */
    lgwStepsRun: string[];
  }
}

/** Every table, children first (the order the kit deletes in, and the snapshots use). */
export const tables = [
  'lesson_events',
  'concept_results',
  'activity_sessions',
  'classroom_activities',
  'user_milestones',
  'user_objectives',
  'milestones',
  'objectives',
  'access_tokens',
  'classrooms_teachers',
  'concepts',
  'activities',
  'activity_classifications',
  'units',
  'classrooms',
  'users',
];

/**
 * Where embedded data folders go: a memory file system when there is one with room to spare (a copy there
 * costs a fraction of one on disk), else the system's temporary folder.
 */
export function scratchDir(): string {
  try {
    const shm = statfsSync('/dev/shm');
    if (shm.bavail * shm.bsize >= 2 * 1024 ** 3) return '/dev/shm';
  } catch {
    // No /dev/shm here.
  }
  return tmpdir();
}

export const databaseName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

export function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `sql` as the server's admin, on the database `serverUrl` names. */
export async function onServer(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A new, empty database on the server `serverUrl` names (connected to as admin), and how to drop it. */
export async function freshServerDatabase(serverUrl: string, prefix = 'lgw_test'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = databaseName(prefix);
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * The settings that name a database on the test server, by its URL there: in the pooler pass, as a
 * deployment behind PgBouncer sets them (queries through the pooler, unnamed; the listening connection and
 * migrations on the server itself), else the server's URL alone.
 */
export type ServerDatabaseEnv = { DATABASE_URL: string; DATABASE_DIRECT_URL?: string; DATABASE_PREPARED_STATEMENTS?: string };
export function serverDatabaseEnv(template: Template, url: string): ServerDatabaseEnv {
  if (template.kind !== 'postgresql' || !template.pooler) return { DATABASE_URL: url };
  const pooled = new URL(url);
  pooled.host = template.pooler;
  return { DATABASE_URL: pooled.toString(), DATABASE_DIRECT_URL: url, DATABASE_PREPARED_STATEMENTS: '0' };
}

/** The settings that name a database, its URL on the server itself (server runs only), and how to remove it. */
export type OwnDatabase = { env: ServerDatabaseEnv & { DATA_DIR: string }; databaseUrl: string | undefined; remove: () => Promise<void> };

/**
 * A database of its own, copied from a template: the fixture one (`fixture`), or the empty one (`empty`:
 * migrated, no rows).
 */
export async function copyOfTemplate(template: Template, which: 'fixture' | 'empty', prefix = 'lgw_test'): Promise<OwnDatabase> {
  if (template.kind === 'postgresql') {
    const serverUrl = process.env.DATABASE_URL;
    if (!serverUrl) throw new Error('the test templates are on a PostgreSQL server, but DATABASE_URL is not set here');
    const name = databaseName(prefix);
    await onServer(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${which === 'fixture' ? template.fixtureName : template.emptyName}`);
    const databaseUrl = withDatabase(serverUrl, name);
    return {
      env: { ...serverDatabaseEnv(template, databaseUrl), DATA_DIR: 'memory://' },
      databaseUrl,
      remove: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }
  const dir = await mkdtemp(join(scratchDir(), `${prefix.replaceAll('_', '-')}-`));
  const dataDir = join(dir, 'data');
  await cp(which === 'fixture' ? template.fixtureDataDir : template.emptyDataDir, dataDir, { recursive: true });
  return { env: { DATABASE_URL: '', DATA_DIR: dataDir }, databaseUrl: undefined, remove: () => rm(dir, { recursive: true, force: true }) };
}
