import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { nodeArgsOf, projectRoot } from './npm-scripts.ts';
import { copyOfTemplate, freshServerDatabase, serverDatabaseEnv, type ServerDatabaseEnv } from './template.ts';

// The real server as a child process, started as `npm start` starts it: the bundle built into dist/, then
// node with the start script's own arguments, on a free port of 127.0.0.1, with the demo data. Unless told
// otherwise each gets a database of its own, migrated and empty (a copy of the run's empty template): on
// the server DATABASE_URL names, else an embedded one in a temporary folder. `stopServerProcesses()` (in
// afterAll or afterEach) kills what still runs and drops the databases made here.

export type ServerProcess = {
  child: ChildProcess;
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Resolves with the exit code once the process has exited (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Everything it has printed so far, stdout and stderr together. */
  output(): string;
};

/**
 * Settings naming a database of the caller's own: `DATABASE_URL` on a server run (with the pooler pass's
 * settings, tests/kit/template.ts, serverDatabaseEnv), else an embedded `DATA_DIR`.
 */
export type DatabaseEnv = ServerDatabaseEnv & { DATA_DIR?: string };

const cleanups: (() => Promise<void>)[] = [];

/**
 * A database nobody else uses, removed by `stopServerProcesses`: on the server DATABASE_URL names
 * (`DATABASE_URL` set), else an embedded data folder (`DATABASE_URL` empty, `DATA_DIR` set). A copy of the
 * run's empty template (migrated, no rows), or with `brandNew` one nothing has touched yet, as the first
 * start finds it.
 */
export async function freshDatabaseEnv(prefix = 'lgw_test_server', options: { brandNew?: boolean } = {}): Promise<DatabaseEnv> {
  const server = process.env.DATABASE_URL;
  if (!options.brandNew) {
    const database = await copyOfTemplate(inject('lgwTemplate'), 'empty', prefix);
    cleanups.push(database.remove);
    return database.env;
  }
  if (server) {
    const database = await freshServerDatabase(server, prefix);
    cleanups.push(database.drop);
    return serverDatabaseEnv(inject('lgwTemplate'), database.url);
  }
  const dir = await mkdtemp(join(tmpdir(), 'lgw-server-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return { DATABASE_URL: '', DATA_DIR: join(dir, 'data') };
}

/**
 * Starts the server and waits until it listens. `env` adds to (or overrides) PORT=0, HOST=127.0.0.1,
 * DEMO_DATA=1 and LOG_LEVEL=info; without a DATABASE_URL or DATA_DIR in it, the server gets a database of
 * its own (`freshDatabaseEnv()`).
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const database = 'DATABASE_URL' in env || 'DATA_DIR' in env ? {} : await freshDatabaseEnv();
  const { DATABASE_URL: _server, ...inherited } = process.env;
  const child = spawn(process.execPath, nodeArgsOf('start'), {
    cwd: projectRoot,
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: '1', LOG_LEVEL: 'info', DATABASE_URL: '', ...database, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      // src/main.ts prints the demo token lines in the same write as this one.
      const match = /Lessons gateway on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve(Number(match[1]));
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`The server did not start:\n${output}`));
      }
    }, 50);
  });
  return { child, port, origin: `http://127.0.0.1:${port}`, exited, output: () => output };
}

/** Kills the server processes still running and removes the databases made here, newest first. */
export async function stopServerProcesses(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}
