#!/usr/bin/env node
// Fails (exit 2) when prisma/schema.prisma and prisma/migrations describe different databases. Always
// through the wasm engine bridge, which replays the migrations on an in-memory PGlite: no PostgreSQL
// server or DATABASE_URL is needed (prisma/README-migrations.md).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const { status } = spawnSync(
  process.execPath,
  [here('./prisma.mjs'), 'migrate', 'diff', '--from-migrations', 'prisma/migrations', '--to-schema', 'prisma/schema.prisma', '--exit-code'],
  { stdio: 'inherit', env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: here('./schema-engine-wasm.mjs') } },
);

if (status === 2) {
  console.error('\nprisma/schema.prisma has changes that no migration contains (listed above).');
  console.error('Create one with: npm run db:migrate:dev -- --name <what_changed>');
}
process.exit(status ?? 1);
