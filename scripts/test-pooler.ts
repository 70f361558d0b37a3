import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pgbouncerExecutable } from '../tests/kit/pgbouncer.ts';

// npm run test:pooler: the pooler pass (docs/testing.md, The pooler pass). The files below run with every
// gateway, server and command behind PgBouncer in transaction mode, started by the kit; without a server
// (DATABASE_URL) or without pgbouncer, the pass is skipped with a message saying what is missing.

/**
 * What reaches the database differently through a pooler: every read and write, transactions and their
 * locks, the listening connection, migrations, the commands. Left out: what never does (the docs, HTTP
 * hardening, GraphQL limits, trusted documents, the fuzzing), and prepared-statements.test.ts, which is
 * about named statements.
 */
export const POOLER_PASS = [
  'tests/integration/activities/',
  'tests/integration/classroom-activities/',
  'tests/integration/graphql/errors.test.ts',
  'tests/integration/graphql/operations.test.ts',
  'tests/integration/graphql/subgraph.test.ts',
  'tests/integration/identity/',
  'tests/integration/kit/',
  'tests/integration/live-lessons/',
  'tests/integration/milestones/',
  'tests/integration/operations/',
  'tests/integration/rest/',
  'tests/integration/security/cross-teacher.test.ts',
  'tests/integration/security/finish-lesson-unstorable.test.ts',
  'tests/integration/security/path-ids.test.ts',
  'tests/integration/users/',
  'tests/system/demo/demo-data.test.ts',
  'tests/system/live-lessons/instances.test.ts',
  'tests/system/pooler/',
  'tests/system/users/token-cache-instances.test.ts',
];

const missing = !process.env.DATABASE_URL
  ? 'it runs on a PostgreSQL server: set DATABASE_URL (e.g. postgresql://postgres@127.0.0.1:5432/postgres)'
  : !pgbouncerExecutable()
    ? 'pgbouncer is not installed (Debian: apt-get install pgbouncer; or set PGBOUNCER to its path)'
    : undefined;
if (missing) {
  process.stdout.write(`The pooler pass is skipped: ${missing}.\n`);
} else {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const vitest = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...POOLER_PASS, ...process.argv.slice(2)], {
    cwd: root,
    env: { ...process.env, TEST_PGBOUNCER: '1' },
    stdio: 'inherit',
  });
  vitest.on('exit', (code, signal) => (process.exitCode = code ?? (signal ? 1 : 0)));
}
