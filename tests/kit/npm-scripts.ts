import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { scriptCommand } from '../../scripts/start-command.mjs';

// The npm scripts as a user runs them (package.json): their steps before node (the build of dist/) run once
// per test process, then node with the script's own arguments, from the project's folder.

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

const built = new Set<string>();

/** The node arguments of `npm run <script>`, its steps before them run once in this process. */
export function nodeArgsOf(script: string): string[] {
  const { steps, nodeArgs } = scriptCommand(projectRoot, script);
  const key = JSON.stringify(steps);
  if (!built.has(key)) {
    for (const [command, ...args] of steps) execFileSync(command === 'node' ? process.execPath : command!, args, { cwd: projectRoot });
    built.add(key);
  }
  return nodeArgs;
}
