// Builds what `npm start` and the commands run (dist/main.js, dist/cli/*.js): src/ bundled by esbuild into ES
// modules, packages left to node_modules, so that no TypeScript loader sits in the process
// (docs/performance.md). Fast enough to build at every start or command, so dist/ is never stale.
import { build } from 'esbuild';

await build({
  entryPoints: {
    main: 'src/main.ts',
    'cli/import': 'src/cli/import.ts',
    'cli/token-create': 'src/cli/token-create.ts',
    'cli/token-revoke': 'src/cli/token-revoke.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
