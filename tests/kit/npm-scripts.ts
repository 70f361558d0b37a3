import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { scriptCommand } from '../../scripts/start-command.mjs';

// The npm scripts as a user runs them (package.json): their steps before node (the build of dist/), run once
// per test run by the global setup (before any worker spawns what they build), then node with the script's arguments.

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

const ranHere = new Set<string>();

/** Runs `npm run <script>`'s steps before node (in the global setup); returns what names them. */
export function runStepsOf(script: string): string {
  const { steps } = scriptCommand(projectRoot, script);
  for (const [command, ...args] of steps) execFileSync(command === 'node' ? process.execPath : command!, args, { cwd: projectRoot });
  return JSON.stringify(steps);
}

/** The node arguments of `npm run <script>`, its steps before them run already (by the global setup, or once here). */
export function nodeArgsOf(script: string): string[] {
  const { steps, nodeArgs } = scriptCommand(projectRoot, script);
  const key = JSON.stringify(steps);
  const runBefore: string[] | undefined = inject('lgwStepsRun');
  if (!runBefore?.includes(key) && !ranHere.has(key)) ranHere.add(runStepsOf(script));
  return nodeArgs;
}
