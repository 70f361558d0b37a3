import { join } from 'node:path';
import { build } from 'esbuild';
import { projectRoot } from '../paths.ts';

// GraphiQL, React and their styles, bundled from node_modules by esbuild (which tsx already brings) the
// first time the playground is asked for, and kept in memory: no build step, no files written, nothing
// fetched from another host. Once per process (docs/performance.md).

export type PlaygroundAssets = { js: string; css: string };

const entry = join(projectRoot, 'src', 'playground', 'browser.js');

let pending: Promise<PlaygroundAssets> | undefined;

async function bundle(): Promise<PlaygroundAssets> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    outdir: 'playground',
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    // GraphiQL's stylesheet inlines its fonts and images as data: URLs; anything else would fail here.
    loader: { '.woff2': 'dataurl', '.woff': 'dataurl', '.ttf': 'dataurl', '.svg': 'dataurl', '.png': 'dataurl' },
    logLevel: 'silent',
  });
  const text = (extension: string) => result.outputFiles.find((file) => file.path.endsWith(extension))?.text ?? '';
  return { js: text('.js'), css: text('.css') };
}

/** The bundle, built once; a failed build is tried again on the next request. */
export function playgroundAssets(): Promise<PlaygroundAssets> {
  pending ??= bundle().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}
