// The command `npm start` runs, read from package.json, so that the benchmark and the tests start the
// gateway exactly as a user does: the steps before the server (the build), then node's own arguments.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** @returns {{ steps: string[][], nodeArgs: string[] }} each step a command and its arguments */
export function startCommand(root) {
  const script = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  const commands = script.split('&&').map((part) => part.trim().split(/\s+/));
  const [node, ...nodeArgs] = commands.at(-1);
  if (node !== 'node') throw new Error(`package.json's start script should end with a node command; got ${script}`);
  return { steps: commands.slice(0, -1), nodeArgs };
}
