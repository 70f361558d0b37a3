#!/usr/bin/env node
// Runs this project's Prisma CLI with the given arguments: `node scripts/prisma.mjs migrate dev`. Where the
// native schema-engine binary cannot be had (offline), it points PRISMA_SCHEMA_ENGINE_BINARY at the
// WebAssembly bridge, scripts/schema-engine-wasm.mjs; else nothing changes (prisma/README-migrations.md).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
let prismaDir;
try {
  prismaDir = dirname(require.resolve('prisma/package.json'));
} catch (e) {
  // `npm ci --omit=dev` has no CLI (a devDependency): don't fail the install in postinstall.
  if (process.env.npm_lifecycle_event !== 'postinstall') throw e;
  console.warn('prisma CLI not installed (devDependencies omitted?): skipping `prisma generate`.');
  process.exit(0);
}

// The places where the CLI itself looks for `schema-engine-<platform>`.
function hasNativeEngine() {
  const enginesDir = dirname(createRequire(join(prismaDir, 'package.json')).resolve('@prisma/engines/package.json'));
  return [enginesDir, prismaDir, dirname(prismaDir), join(prismaDir, 'runtime')].some(
    (dir) =>
      existsSync(dir) &&
      readdirSync(dir).some(
        (name) => /^schema-engine-[\w.-]+$/.test(name) && name !== 'schema-engine-wasm' && statSync(join(dir, name)).isFile(),
      ),
  );
}

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY && !env.PRISMA_MIGRATION_ENGINE_BINARY && !hasNativeEngine()) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = fileURLToPath(new URL('./schema-engine-wasm.mjs', import.meta.url));
}

const child = spawn(process.execPath, [join(prismaDir, 'build/index.js'), ...process.argv.slice(2)], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(signal ? 128 + constants.signals[signal] : code));
