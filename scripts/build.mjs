// Builds dist/main.js, what `npm start` runs: src/ (with the generated Prisma client) bundled by esbuild
// into one ES module, packages left to node_modules. Plain Node then runs the gateway with no TypeScript
// loader in the process (tsx keeps a loader thread with its own heap: ~35 MB resident, README
// Performance). Takes well under a second, so `npm start` builds every time and dist/ is never stale.
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
