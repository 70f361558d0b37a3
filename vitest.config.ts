import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One graphql-js for everything: Vite would give src/ the package's ES module build, while the
  // CommonJS dependencies (graphql-tools, Apollo, graphql-ws's Node import) get its CommonJS build, and
  // graphql-js refuses a schema from the other copy. Node itself, and the bundle, resolve to `main`.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['tests/**/*.test.ts'],
    // Each file starts its own gateway on its own fresh database (PGlite in memory, or a new database on
    // the server named by DATABASE_URL); starting one takes seconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
