import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './ports.ts';

// PgBouncer in transaction mode in front of the test server, for the pooler pass (docs/testing.md, The
// pooler pass): Debian's pgbouncer, on a free port, configured from tests/kit/pgbouncer.ini in a folder of its own.

const TEMPLATE = new URL('./pgbouncer.ini', import.meta.url);
const STARTUP_TIMEOUT_MS = 10_000;

/** The pgbouncer executable (PGBOUNCER, else Debian's), or undefined when it is not installed. */
export function pgbouncerExecutable(): string | undefined {
  return [process.env.PGBOUNCER, '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'].find(
    (path): path is string => Boolean(path) && existsSync(path!),
  );
}

export type PgBouncer = {
  /** `127.0.0.1:<port>`: a database URL of the server with this host in its place goes through the pooler. */
  host: string;
  /** Its process id (the benchmark reads its CPU time). */
  pid: number;
  stop(): Promise<void>;
};

/**
 * Starts PgBouncer in front of the server `serverUrl` names (its host, port, user and password) and
 * resolves once it answers. It refuses to run as root: started by root, it runs as `postgres`.
 */
export async function startPgBouncer(serverUrl: string): Promise<PgBouncer> {
  const executable = pgbouncerExecutable();
  if (!executable) throw new Error('pgbouncer is not installed (Debian: apt-get install pgbouncer; or set PGBOUNCER to its path)');
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const dir = await mkdtemp(join(tmpdir(), 'lgw-pgbouncer-'));
  // Readable by the user it runs as.
  await chmod(dir, 0o755);
  const authFile = join(dir, 'userlist.txt');
  const configFile = join(dir, 'pgbouncer.ini');
  await writeFile(authFile, `"${user}" ""\n`, { mode: 0o644 });
  const template = await readFile(TEMPLATE, 'utf8');
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const values: Record<string, string> = {
      SERVER_HOST: server.hostname,
      SERVER_PORT: server.port || '5432',
      SERVER_LOGIN: password ? ` password=${password}` : '',
      PORT: String(port),
      AUTH_FILE: authFile,
      USER: user,
    };
    await writeFile(
      configFile,
      template.replace(/@([A-Z_]+)@/g, (_, name: string) => values[name]!),
      { mode: 0o644 },
    );
    const asUser = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
    const child = spawn(executable, [...asUser, configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: string) => (output = (output + chunk).slice(-20_000));
    child.stdout.setEncoding('utf8').on('data', keep);
    child.stderr.setEncoding('utf8').on('data', keep);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await answering(`postgresql://${encodeURIComponent(user)}@127.0.0.1:${port}/pgbouncer`, child);
    } catch (error) {
      child.kill('SIGTERM');
      await exited;
      // Another process may have taken the port between the look and the start.
      if (attempt < 3 && /Address already in use/.test(output)) continue;
      await rm(dir, { recursive: true, force: true });
      throw new Error(`PgBouncer did not start (${(error as Error).message}):\n${output}`, { cause: error });
    }
    return {
      host: `127.0.0.1:${port}`,
      pid: child.pid!,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          await exited;
        }
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
}

/** Resolves once the admin console answers; throws if the process exits or the time runs out first. */
async function answering(adminUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('it exited');
    const client = new pg.Client({ connectionString: adminUrl });
    try {
      await client.connect();
      await client.query('SHOW VERSION');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
}
