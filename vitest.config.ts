import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Each file starts its own gateway on its own fresh database (PGlite in memory, or a new database on
    // the server named by DATABASE_URL); starting one takes seconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
