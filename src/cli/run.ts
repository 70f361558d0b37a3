import { ConfigError } from '../config.ts';
import { DataFolderInUseError } from '../db/client.ts';

/** An error whose message is for the person at the terminal: printed alone, no stack trace. */
export class UsageError extends Error {}

/**
 * Runs a command: its expected failures (bad usage, bad configuration, an embedded data folder a server
 * holds, or any of `expected`) print their
 * message to stderr and exit 1; anything else prints the stack. The exit code is set, not forced, so
 * pending writes to stdout are flushed first.
 */
export function runCommand(main: () => Promise<void>, expected: (new (...args: never[]) => Error)[] = []): void {
  main().then(
    () => {
      process.exitCode = 0;
    },
    (error: unknown) => {
      const known =
        error instanceof UsageError ||
        error instanceof ConfigError ||
        error instanceof DataFolderInUseError ||
        expected.some((type) => error instanceof type);
      process.stderr.write(known ? `${(error as Error).message}\n` : `Unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
