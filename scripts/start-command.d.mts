/** The command an npm script runs: the steps before node, each a command and its arguments, then node's arguments. */
export function scriptCommand(root: string, name: string): { steps: string[][]; nodeArgs: string[] };
/** The command `npm start` runs. */
export function startCommand(root: string): { steps: string[][]; nodeArgs: string[] };
