#!/usr/bin/env node
// Drop-in for Prisma's native `schema-engine` binary, built on @prisma/schema-engine-wasm, where the native
// one cannot be downloaded (prisma/README-migrations.md): the CLI's JSON-RPC over stdin/stdout and its
// one-shot `cli` sub-commands; PostgreSQL only, through @prisma/adapter-pg or an in-memory PGlite.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
// Resolve pg and the adapter utils through adapter-pg, so they are the very copies it uses.
const requireFromPg = createRequire(require.resolve('@prisma/adapter-pg'));
const pg = requireFromPg('pg');
const { bindMigrationAwareSqlAdapterFactory } = requireFromPg('@prisma/driver-adapter-utils');
const { PrismaPg } = await import('@prisma/adapter-pg');

// ---- arguments -------------------------------------------------------------------------------
const argv = process.argv.slice(2);
const datamodelPaths = [];
let datasource = {};
let cliCommand;
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i];
  if (arg === '--version' || arg === '-V') cliCommand = 'version';
  else if (arg === '--datamodels') datamodelPaths.push(argv[++i]);
  else if (arg === '--datasource') datasource = JSON.parse(argv[++i]);
  else if (arg === 'cli') cliCommand = argv[++i];
  else if (arg.startsWith('--')) i++; // --enabled-preview-features, --extension-types: unused here
}

// ---- the wasm module -------------------------------------------------------------------------
// The package's entry does `import * as wasm from "./schema_engine_bg.wasm"`, which Node 20 cannot
// load without --experimental-wasm-modules; so instantiate the .wasm by hand with the JS glue.
async function loadWasmEngine() {
  const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
  const bytes = await readFile(new URL('schema_engine_bg.wasm', import.meta.resolve('@prisma/schema-engine-wasm/schema_engine_bg')));
  const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue });
  glue.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return glue;
}
// A Rust panic stores its message here (the glue expects this global) before trapping.
let panicMessage;
globalThis.PRISMA_WASM_PANIC_REGISTRY = { set_message: (message) => (panicMessage = message) };

// ---- database adapters -----------------------------------------------------------------------
// adapter-pg has no column type for Postgres' internal one-byte `"char"` type (oid 18), which the
// schema describer selects (pg_class.relkind, pg_constraint.contype, ...): every introspection
// would fail with "Column type 'char' could not be deserialized". Report such columns as text.
const addFields = pg.Result.prototype.addFields;
pg.Result.prototype.addFields = function (fields) {
  for (const field of fields) if (field.dataTypeID === 18) field.dataTypeID = 25;
  return addFields.call(this, fields);
};

function pgAdapterFactory(url, shadowUrl) {
  // `?schema=` is Prisma's, not libpq's: the native engine makes it the search_path; do the same.
  const schema = new URL(url).searchParams.get('schema') ?? undefined;
  const pgConfig = (connectionString) => ({
    connectionString,
    ...(schema && { options: `-c search_path=${pg.escapeIdentifier(schema)}` }),
  });
  const factory = new PrismaPg(pgConfig(url), { schema });
  // adapter-pg's own connectToShadowDb creates a throwaway database but then connects to the *main*
  // one (its `database` option loses to the connection string), so do it here. Like the native
  // engine: use shadowDatabaseUrl when configured (emptied first), else a temporary database.
  factory.connectToShadowDb = async () => {
    if (shadowUrl) {
      const shadow = await new PrismaPg(pgConfig(shadowUrl), { schema }).connect();
      const name = pg.escapeIdentifier(schema ?? 'public');
      await shadow.executeScript(`DROP SCHEMA IF EXISTS ${name} CASCADE; CREATE SCHEMA ${name};`);
      return shadow;
    }
    const main = await factory.connect();
    const database = `prisma_migrate_shadow_db_${randomUUID()}`;
    await main.executeScript(`CREATE DATABASE "${database}"`);
    const tempUrl = new URL(url);
    tempUrl.pathname = `/${database}`;
    const shadow = await new PrismaPg(pgConfig(tempUrl.href), { schema }).connect();
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await main.executeScript(`DROP DATABASE "${database}"`);
      await main.dispose();
    };
    return shadow;
  };
  return factory;
}

// In-memory PGlite (PostgreSQL compiled to wasm). Starting one costs seconds (it runs initdb), and
// a file-only diff only sends a version probe to the main database, so main and shadow share one.
async function pgliteAdapterFactory() {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const client = await PGlite.create();
  const open = async () => {
    const adapter = await new PrismaPGlite(client).connect();
    // pglite-prisma-adapter 0.7 does not await exec() in executeScript, so a failing migration
    // script would surface as an unhandled rejection instead of an error to the engine.
    adapter.executeScript = async (script) => {
      try {
        await client.exec(script);
      } catch (e) {
        adapter.onError(e);
      }
    };
    return adapter;
  };
  return { provider: 'postgres', adapterName: '@prisma/adapter-pglite', connect: open, connectToShadowDb: open };
}

// The live database comes from --datasource (prisma.config.ts). `migrate diff` between files only
// (schema, migrations, empty) never touches it, but the wasm engine connects to its adapter when
// created; so such a diff runs on in-memory PGlite and needs no server and no preset database.
async function pickAdapter(method, params) {
  const fileOnlyDiff = method === 'diff' && ![params.from.tag, params.to.tag].some((tag) => tag === 'url' || tag === 'schemaDatasource');
  if (fileOnlyDiff) return pgliteAdapterFactory();
  if (!/^postgres(ql)?:\/\//.test(datasource.url ?? '')) {
    throw new Error('scripts/schema-engine-wasm.mjs needs a postgresql:// datasource url');
  }
  return pgAdapterFactory(datasource.url, datasource.shadowDatabaseUrl);
}

// ---- `cli <command>` sub-commands (argv, not JSON-RPC) ---------------------------------------
// The CLI runs these before migrate dev/deploy to create a missing database. The wasm engine has no
// equivalent, so they are done with `pg`. On failure the CLI reads stderr: it skips the first line
// and expects the others to be JSON log lines with fields.error_code (P1003 = no such database).
function describeConnection(url) {
  const u = new URL(url);
  return { database: decodeURIComponent(u.pathname.slice(1)) || 'postgres', host: `${u.hostname}:${u.port || 5432}` };
}
async function withClient(url, database, fn) {
  const u = new URL(url);
  if (database) u.pathname = `/${encodeURIComponent(database)}`;
  const client = new pg.Client({ connectionString: u.href });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
async function runCliCommand(command) {
  const url = datasource.url;
  const { database, host } = describeConnection(url);
  const quoted = pg.escapeIdentifier(database);
  try {
    if (command === 'can-connect-to-database') await withClient(url, undefined, (c) => c.query('SELECT 1'));
    else if (command === 'create-database') await withClient(url, 'postgres', (c) => c.query(`CREATE DATABASE ${quoted}`));
    else if (command === 'drop-database') await withClient(url, 'postgres', (c) => c.query(`DROP DATABASE ${quoted}`));
    else throw new Error(`Unknown cli command: ${command}`);
    return 0;
  } catch (e) {
    const [error_code, message] =
      e.code === '3D000'
        ? ['P1003', `Database \`${database}\` does not exist on the database server at \`${host}\`.`]
        : e.code === '28P01' || e.code === '28000'
          ? ['P1000', `Authentication failed against database server at \`${host}\`: ${e.message}`]
          : e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND'
            ? ['P1001', `Can't reach database server at \`${host}\`.`]
            : ['P1000', e.message];
    process.stderr.write(`schema-engine-wasm: cli ${command} failed\n`);
    process.stderr.write(`${JSON.stringify({ level: 'ERROR', target: 'schema_engine::logger', fields: { message, error_code } })}\n`);
    return 1;
  }
}

// ---- JSON-RPC server -------------------------------------------------------------------------
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

// The native engine prints `migrate diff` output by sending a `print` request to the CLI (which
// writes it to its stdout, or to the --output file); the wasm engine returns it instead.
let nextPrintId = 1;
const pendingPrints = new Map();
function printThroughCli(content) {
  const id = nextPrintId++;
  send({ jsonrpc: '2.0', id, method: 'print', params: { content } });
  return new Promise((resolve) => pendingPrints.set(id, resolve));
}

let engine;
async function getEngine(method, params) {
  if (!engine) {
    const { SchemaEngine } = await loadWasmEngine();
    const datamodels = datamodelPaths.map((path) => [path, readFileSync(path, 'utf8')]);
    const adapter = bindMigrationAwareSqlAdapterFactory(await pickAdapter(method, params));
    // The callback receives the engine's log lines, already in the native engine's stderr format.
    engine = await SchemaEngine.new(
      { datamodels: datamodels.length ? datamodels : undefined },
      (line) => process.stderr.write(`${line}\n`),
      adapter,
    );
  }
  return engine;
}

const handlers = {
  async diff(params) {
    const { exitCode, stdout } = await (await getEngine('diff', params)).diff(params);
    if (stdout != null) await printThroughCli(stdout);
    return { exitCode, stdout: null };
  },
  // The wasm engine's evaluateDataLoss does not open a shadow database by itself: it works after a
  // devDiagnostic, but not once applyMigrations has applied something (as `migrate dev` does on a
  // database that is behind), failing with "PostgreSQL shadow DB must be provided through an
  // external factory". Run devDiagnostic (read-only) again and retry.
  async evaluateDataLoss(params) {
    const e = await getEngine('evaluateDataLoss', params);
    try {
      return await e.evaluateDataLoss(params);
    } catch (error) {
      if (!/shadow DB must be provided through an external factory/.test(error.message)) throw error;
      await e.devDiagnostic({ migrationsList: params.migrationsList, filters: params.filters });
      return e.evaluateDataLoss(params);
    }
  },
  // Used by the CLI only for error reports; the wasm engine calls it `version`.
  async getDatabaseVersion(params) {
    return (await getEngine('getDatabaseVersion', params)).version(params);
  },
};

async function handleRequest({ id, method, params }) {
  try {
    const handler = handlers[method];
    const result = handler
      ? await handler(params)
      : await (async () => {
          const e = await getEngine(method, params);
          if (typeof e[method] !== 'function') throw new Error(`The wasm schema engine does not support \`${method}\`.`);
          return e[method](params);
        })();
    send({ jsonrpc: '2.0', id, result: result ?? {} });
  } catch (e) {
    const isPanic = panicMessage !== undefined;
    const message = isPanic ? panicMessage : String(e?.message ?? e);
    send({ jsonrpc: '2.0', id, error: { code: 4466, message, data: { is_panic: isPanic, message, meta: {} } } });
    if (isPanic) process.exit(101); // the wasm instance is unusable after a panic
  }
}

async function serve() {
  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    const message = JSON.parse(line);
    if (message.method) {
      queue = queue.then(() => handleRequest(message));
    } else {
      // the CLI's reply to a `print`
      pendingPrints.get(message.id)?.(message.result);
      pendingPrints.delete(message.id);
    }
  });
  // The CLI ends stdin when it is done with the engine.
  lines.on('close', () => queue.then(() => process.exit(0)));
}

if (cliCommand === 'version') {
  const glue = await loadWasmEngine();
  process.stdout.write(`schema-engine-cli ${glue.version()}\n`);
} else if (cliCommand) {
  process.exitCode = await runCliCommand(cliCommand);
} else {
  await serve();
}
