import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Files the gateway reads at run time (schema.graphql, prisma/migrations, the playground's entry) are
// found from the project's folder, not from the module that reads them: the same code runs from src/
// (tsx, tests) and bundled in dist/ (npm start).

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schema.graphql'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No project folder (package.json and schema.graphql) above ${from}`);
  }
}

export const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)));
