/** The command `npm start` runs: the steps before the server, each a command and its arguments, then node's arguments. */
export function startCommand(root: string): { steps: string[][]; nodeArgs: string[] };
