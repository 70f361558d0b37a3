// The commands `npm start` and the other npm scripts run, read from package.json, so that the benchmark and
// the tests run the gateway and its commands exactly as a user does: the steps before (the build), then node's arguments.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** @returns {{ steps: string[][], nodeArgs: string[] }} each step a command and its arguments */
export function scriptCommand(root, name) {
  const script = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts[name];
  const commands = script.split('&&').map((part) => part.trim().split(/\s+/));
  const [node, ...nodeArgs] = commands.at(-1);
  if (node !== 'node') throw new Error(`package.json's ${name} script should end with a node command; got ${script}`);
  return { steps: commands.slice(0, -1), nodeArgs };
}

/** `npm start`'s steps and node arguments. */
export const startCommand = (root) => scriptCommand(root, 'start');
