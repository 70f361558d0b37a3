import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// Three layers (docs/testing.md): unit (no database), integration (a gateway in this process on a copy of
// the run's template database, tests/kit/template.ts), system (child processes: the server, the commands,
// the browser; Redis, outages, timeouts, bursts; a file that needs a process of its own).

const cores = availableParallelism();

const shared: TestProjectInlineConfiguration = {
  // One graphql-js for everything: Vite would give src/ the package's ES module build, while the
  // CommonJS dependencies (graphql-tools, Apollo, graphql-ws's Node import) get its CommonJS build, and
  // graphql-js refuses a schema from the other copy. Node itself, and the bundle, resolve to `main`.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
};

export default defineConfig({
  test: {
    projects: [
      {
        ...shared,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        ...shared,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/kit/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // A worker imports the app once for all the files it runs: no file changes a module's state (no
          // mocks or spies; a fake clock only within a test, put back after it), and each starts its own gateways.
          isolate: false,
          // CPU-bound in this process (PGlite runs in it): one worker per core.
          maxWorkers: cores,
          sequence: { groupOrder: 1 },
        },
      },
      {
        ...shared,
        test: {
          name: 'system',
          include: ['tests/system/**/*.test.ts'],
          globalSetup: ['tests/kit/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // A worker imports the kit (and, for the files that start gateways in-process, the app) once for
          // all its files, as the integration layer does. Most of their time is spent waiting on child
          // processes, timers and sockets, so one worker more than the cores.
          isolate: false,
          maxWorkers: cores + 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
