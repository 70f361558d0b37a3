import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { postgresBinaries } from '../tests/kit/replica.ts';

// npm run test:replicas: the replica pass (docs/testing.md, The replica pass). The files below start their own
// throwaway primary and streaming replica (tests/kit/replica.ts) with PostgreSQL's binaries; without them, the
// pass is skipped with a message saying what is missing. Only the files that need a replica: it stays short.

export const REPLICA_PASS = ['tests/system/replicas/'];

const missing = !postgresBinaries()
  ? "PostgreSQL's binaries are not installed (Debian: apt-get install postgresql; or set PG_BIN to their folder)"
  : undefined;
if (missing) {
  process.stdout.write(`The replica pass is skipped: ${missing}.\n`);
} else {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const vitest = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...REPLICA_PASS, ...process.argv.slice(2)], {
    cwd: root,
    env: { ...process.env, TEST_REPLICAS: '1' },
    stdio: 'inherit',
  });
  vitest.on('exit', (code, signal) => (process.exitCode = code ?? (signal ? 1 : 0)));
}
