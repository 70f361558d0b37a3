import { randomBytes } from 'node:crypto';
import { statfsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { importData } from '../../src/import/import-data.ts';
import { fixture } from './fixture.ts';

// The databases tests start from, made once per run (tests/kit/global-setup.ts): one migrated and empty,
// as a new database is after its first start; one with the shared fixture loaded and the kit's own schema
// `lgw_kit`, which lives in test databases only (never in prisma/migrations): it tells whether anything
// was written, and puts the fixture back.

/** Where the templates are: PGlite data folders, or databases on the server DATABASE_URL names. */
export type Template =
  { kind: 'pglite'; fixtureDataDir: string; emptyDataDir: string } | { kind: 'postgresql'; fixtureName: string; emptyName: string };

/** Every table, children first (the order the kit deletes in, and the snapshots use). */
export const tables = [
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
 * The kit's objects, one statement each. `lgw_kit.writes` moves at every statement that writes a table
 * (statement-level triggers: whoever writes, this process, the app or a command's process; a rollback
 * does not take it back). `lgw_kit.fixture` holds each table's rows as loaded (timestamps that default
 * to the time of insertion left out, so they are fresh again after each restore) and its id sequence.
 */
const kitStatements = [
  'CREATE SCHEMA lgw_kit',
  'CREATE SEQUENCE lgw_kit.writes',
  `CREATE FUNCTION lgw_kit.note_write() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN PERFORM nextval('lgw_kit.writes'); RETURN NULL; END $$`,
  `CREATE TABLE lgw_kit.fixture (
     position int PRIMARY KEY, table_name text NOT NULL, columns text NOT NULL, rows jsonb NOT NULL,
     sequence text, last_value bigint, is_called boolean)`,
  ...tables.flatMap((table, position) => [
    `CREATE TRIGGER lgw_kit_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "${table}"
     FOR EACH STATEMENT EXECUTE FUNCTION lgw_kit.note_write()`,
    `INSERT INTO lgw_kit.fixture (position, table_name, columns, rows, sequence)
     SELECT ${position}, '${table}',
       (SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = '${table}' AND coalesce(column_default, '') NOT LIKE 'CURRENT_TIMESTAMP%'),
       (SELECT coalesce(jsonb_agg(to_jsonb(t)), '[]') FROM "${table}" t),
       pg_get_serial_sequence('"${table}"', 'id')`,
  ]),
  `DO $$
   DECLARE f record; state record;
   BEGIN
     FOR f IN SELECT * FROM lgw_kit.fixture WHERE sequence IS NOT NULL LOOP
       EXECUTE format('SELECT last_value, is_called FROM %s', f.sequence) INTO state;
       UPDATE lgw_kit.fixture SET last_value = state.last_value, is_called = state.is_called WHERE position = f.position;
     END LOOP;
   END $$`,
  // Empties every table (children first) and loads the fixture again (parents first).
  `CREATE FUNCTION lgw_kit.restore() RETURNS void LANGUAGE plpgsql AS $$
   DECLARE f lgw_kit.fixture;
   BEGIN
     FOR f IN SELECT * FROM lgw_kit.fixture ORDER BY position LOOP
       EXECUTE format('DELETE FROM %I', f.table_name);
     END LOOP;
     FOR f IN SELECT * FROM lgw_kit.fixture ORDER BY position DESC LOOP
       IF jsonb_array_length(f.rows) > 0 THEN
         EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM jsonb_populate_recordset(NULL::%I, $1)', f.table_name, f.columns, f.columns, f.table_name)
           USING f.rows;
       END IF;
       IF f.sequence IS NOT NULL THEN PERFORM setval(f.sequence, f.last_value, f.is_called); END IF;
     END LOOP;
   END $$`,
  // One round trip between tests: restores the fixture if anything was written since `known` (or always,
  // with a `known` of -1), then tells the app's token cache that everything changed, as TRUNCATE's trigger
  // does, then the kit's fence; answers the count to pass next time.
  `CREATE FUNCTION lgw_kit.reset(known bigint, token_channel text, fence_channel text, fence text) RETURNS bigint
   LANGUAGE plpgsql AS $$
   BEGIN
     IF known <> (SELECT last_value FROM lgw_kit.writes) THEN PERFORM lgw_kit.restore(); END IF;
     PERFORM pg_notify(token_channel, '*');
     PERFORM pg_notify(fence_channel, fence);
     RETURN (SELECT last_value FROM lgw_kit.writes);
   END $$`,
  // From here on a write is seen even if it is the sequence's first.
  "SELECT nextval('lgw_kit.writes')",
];

async function loadFixture(database: Database): Promise<void> {
  await inTransaction(database.prisma, (tx) => importData(tx, fixture()));
  for (const statement of kitStatements) await database.prisma.$executeRawUnsafe(statement);
}

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

const databaseName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

function withDatabase(serverUrl: string, name: string): string {
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

/** Makes the templates (on the server DATABASE_URL names, else in a temporary folder); `drop` removes them. */
export async function createTemplate(): Promise<{ template: Template; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const emptyName = databaseName('lgw_test_template_empty');
    const fixtureName = databaseName('lgw_test_template');
    const drop = async () => {
      for (const name of [fixtureName, emptyName]) await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    };
    try {
      await onServer(serverUrl, `CREATE DATABASE ${emptyName}`);
      await (await openDatabase({ databaseUrl: withDatabase(serverUrl, emptyName), dataDir: '' })).close();
      // Only copied from now on: nobody may connect, which a copy requires anyway.
      await onServer(serverUrl, `ALTER DATABASE ${emptyName} ALLOW_CONNECTIONS false`);
      await onServer(serverUrl, `CREATE DATABASE ${fixtureName} TEMPLATE ${emptyName}`);
      const database = await openDatabase({ databaseUrl: withDatabase(serverUrl, fixtureName), dataDir: '' });
      try {
        await loadFixture(database);
      } finally {
        await database.close();
      }
      await onServer(serverUrl, `ALTER DATABASE ${fixtureName} ALLOW_CONNECTIONS false`);
    } catch (error) {
      await drop();
      throw error;
    }
    return { template: { kind: 'postgresql', fixtureName, emptyName }, drop };
  }
  const dir = await mkdtemp(join(scratchDir(), 'lgw-template-'));
  const drop = () => rm(dir, { recursive: true, force: true });
  try {
    const emptyDataDir = join(dir, 'empty');
    const fixtureDataDir = join(dir, 'fixture');
    await (await openDatabase({ dataDir: emptyDataDir })).close();
    await cp(emptyDataDir, fixtureDataDir, { recursive: true });
    const database = await openDatabase({ dataDir: fixtureDataDir });
    try {
      await loadFixture(database);
    } finally {
      await database.close();
    }
    return { template: { kind: 'pglite', fixtureDataDir, emptyDataDir }, drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

/** The settings that name a database, and how to remove it. */
export type OwnDatabase = { env: { DATABASE_URL: string; DATA_DIR: string }; databaseUrl: string | undefined; remove: () => Promise<void> };

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
      env: { DATABASE_URL: databaseUrl, DATA_DIR: 'memory://' },
      databaseUrl,
      remove: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }
  const dir = await mkdtemp(join(scratchDir(), `${prefix.replaceAll('_', '-')}-`));
  const dataDir = join(dir, 'data');
  await cp(which === 'fixture' ? template.fixtureDataDir : template.emptyDataDir, dataDir, { recursive: true });
  return { env: { DATABASE_URL: '', DATA_DIR: dataDir }, databaseUrl: undefined, remove: () => rm(dir, { recursive: true, force: true }) };
}
