import { cp, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { importData } from '../../src/import/import-data.ts';
import { fixture } from './fixture.ts';
import { runStepsOf } from './npm-scripts.ts';
import { startPgBouncer } from './pgbouncer.ts';
import { databaseName, onServer, scratchDir, tables, withDatabase, type Template } from './template.ts';

// Makes the template databases (tests/kit/template.ts) once per run for the projects that start gateways,
// servers or commands (vitest.config.ts), and removes them after the last of those; each worker finds them
// with `inject('lgwTemplate')`. With TEST_PGBOUNCER=1 (the pooler pass), PgBouncer in front of the server too.

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
 * Makes the templates (on the server DATABASE_URL names, else in a temporary folder); `drop` removes them.
 * In the pooler pass (TEST_PGBOUNCER=1, on a server only) it starts PgBouncer in front of the server, which
 * every copy is then used through (tests/kit/template.ts, serverDatabaseEnv), and `drop` stops it.
 */
async function createTemplate(): Promise<{ template: Template; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (process.env.TEST_PGBOUNCER === '1') {
    if (!serverUrl) throw new Error('TEST_PGBOUNCER=1: the pooler pass runs on a PostgreSQL server; set DATABASE_URL');
    const pooler = await startPgBouncer(serverUrl);
    try {
      const { template, drop } = await createServerTemplate(serverUrl);
      return {
        template: { ...template, pooler: pooler.host },
        drop: async () => {
          await drop();
          await pooler.stop();
        },
      };
    } catch (error) {
      await pooler.stop();
      throw error;
    }
  }
  if (serverUrl) return createServerTemplate(serverUrl);

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

/** The templates on the server `serverUrl` names. */
async function createServerTemplate(
  serverUrl: string,
): Promise<{ template: Template & { kind: 'postgresql' }; drop: () => Promise<void> }> {
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

type Shared = { made: ReturnType<typeof createTemplate>; users: number; stepsRun?: string };
// Every project's global setup runs in vitest's own process: the projects share one template through it.
const registry = globalThis as { lgwTemplateShared?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (registry.lgwTemplateShared ??= { made: createTemplate(), users: 0 });
  shared.users += 1;
  const { template, drop } = await shared.made;
  project.provide('lgwTemplate', template);
  // The bundles the server and the commands run (`npm start`'s build), built once before any worker spawns them.
  project.provide('lgwStepsRun', [(shared.stepsRun ??= runStepsOf('start'))]);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete registry.lgwTemplateShared;
    await drop();
  };
}
