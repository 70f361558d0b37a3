import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { nodeArgsOf, projectRoot } from './npm-scripts.ts';
import type { Gateway } from './gateway.ts';
import { copyOfTemplate, freshServerDatabase, serverDatabaseEnv } from './template.ts';

// Runs the real commands (`npm run db:import`, `npm run token:create`) as child processes, each time on a
// database of the test's own: an embedded data folder, or a database on the server named by DATABASE_URL
// (never that database itself).

export type Target = {
  /** The settings a command, or a gateway (`startGateway(target.env)`), needs to use this database. */
  env: Record<string, string>;
  /** A folder for the test's files. */
  dir: string;
  writeJson(name: string, value: unknown): Promise<string>;
  /** Opens a gateway on this database, runs `work`, and closes it (a command may then run again). */
  withGateway<T>(work: (gateway: Gateway) => Promise<T>): Promise<T>;
  dispose(): Promise<void>;
};

/**
 * A database of the test's own: a copy of the run's empty template (migrated, no rows), or with `brandNew`
 * one nothing has touched yet, as a first run finds it (a new embedded folder, or a new server database).
 */
export async function freshTarget(options: { brandNew?: boolean } = {}): Promise<Target> {
  const dir = await mkdtemp(join(tmpdir(), 'lgw-cli-'));
  const server = process.env.DATABASE_URL;
  let env: Record<string, string>;
  let drop = async () => {};
  if (!options.brandNew) {
    const database = await copyOfTemplate(inject('lgwTemplate'), 'empty', 'lgw_test_cli');
    env = database.env;
    drop = database.remove;
  } else if (server) {
    const database = await freshServerDatabase(server, 'lgw_test_cli');
    env = { ...serverDatabaseEnv(inject('lgwTemplate'), database.url) };
    drop = database.drop;
  } else {
    env = { DATA_DIR: join(dir, 'data') };
  }
  return {
    env,
    dir,
    async writeJson(fileName, value) {
      const path = join(dir, fileName);
      await writeFile(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
      return path;
    },
    async withGateway(work) {
      // Loaded when first used: a file that only runs commands does not import the app.
      const { startGateway } = await import('./gateway.ts');
      const gateway = await startGateway(env);
      try {
        return await work(gateway);
      } finally {
        await gateway.close();
      }
    },
    async dispose() {
      await drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type CommandResult = { code: number | null; stdout: string; stderr: string };

const scriptOf = { import: 'db:import', 'token-create': 'token:create', 'token-revoke': 'token:revoke' } as const;

/** A command as its npm script runs it (`npm run db:import`, `token:create`, `token:revoke`), with `args`. */
export function runCommand(
  command: 'import' | 'token-create' | 'token-revoke',
  args: string[],
  env: Record<string, string>,
): Promise<CommandResult> {
  const { DATABASE_URL: _server, DATA_DIR: _dir, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgsOf(scriptOf[command]), ...args], {
      cwd: projectRoot,
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
