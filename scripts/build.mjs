// Builds dist/main.js, what `npm start` runs: src/ bundled by esbuild into one ES module, packages left
// to node_modules, so that no TypeScript loader sits in the process (docs/performance.md). Fast enough
// that `npm start` builds every time, and dist/ is never stale.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
