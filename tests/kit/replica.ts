import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './ports.ts';

// A throwaway PostgreSQL primary and a streaming replica of it (a hot standby made by pg_basebackup -R), for
// the replica pass (docs/testing.md, The replica pass): Debian's binaries, on loopback ports, in a temp folder
// removed at stop; run as `postgres` when started by root. The replica's replay can be paused to make it stale.

const run = promisify(execFile);

/** Debian's PostgreSQL binaries (PG_BIN, else the newest of /usr/lib/postgresql/<n>/bin), or undefined. */
export function postgresBinaries(): string | undefined {
  if (process.env.PG_BIN) return existsSync(join(process.env.PG_BIN, 'pg_ctl')) ? process.env.PG_BIN : undefined;
  return ['17', '16', '15', '14'].map((major) => `/usr/lib/postgresql/${major}/bin`).find((dir) => existsSync(join(dir, 'pg_basebackup')));
}

export type Cluster = {
  url: string;
  port: number;
  /** Stops the server fast (its connections are cut), as a crash would look to a client. */
  stop(): Promise<void>;
  start(): Promise<void>;
};

export type ReplicaPair = {
  primary: Cluster;
  replica: Cluster & {
    /** pg_wal_replay_pause(): the replica keeps answering, with what it had replayed. */
    pauseReplay(): Promise<void>;
    resumeReplay(): Promise<void>;
    /** Resolves once the replica has replayed everything the primary had written when called. */
    caughtUp(): Promise<void>;
  };
  stop(): Promise<void>;
};

const asRoot = process.getuid?.() === 0;

/** Runs one of the binaries, as `postgres` when this process is root (PostgreSQL refuses to run as root). */
async function binary(bin: string, name: string, args: string[]): Promise<string> {
  const [file, all] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, name), ...args]] : [join(bin, name), args];
  try {
    const { stdout } = await run(file, all, { timeout: 60_000 });
    return stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${name} ${args.join(' ')} failed: ${stderr ?? ''}${stdout ?? ''}`, { cause: error });
  }
}

async function query<Row>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row & pg.QueryResultRow>(text)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what}: ${(error as Error).message}`, { cause: error });
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function cluster(bin: string, dir: string, port: number): Cluster {
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const log = join(dir, '..', `${port}.log`);
  return {
    url,
    port,
    start: async () => {
      await binary(bin, 'pg_ctl', ['-D', dir, '-l', log, '-w', '-t', '60', 'start']);
    },
    stop: async () => {
      await binary(bin, 'pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']).catch(() => {});
    },
  };
}

/**
 * Starts a primary (initdb, wal_level=replica) and a streaming replica of it (pg_basebackup -R), each on a
 * free loopback port with trust authentication, and resolves once the replica answers as a hot standby.
 */
export async function startReplicaPair(): Promise<ReplicaPair> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("PostgreSQL's binaries are not installed (Debian: apt-get install postgresql; or set PG_BIN to their folder)");
  const root = await mkdtemp(join(tmpdir(), 'lgw-replica-'));
  await chmod(root, 0o755);
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    await chown(root, uid, gid);
  }
  const [primaryDir, replicaDir, sockets] = ['primary', 'replica', 'sockets'].map((name) => join(root, name)) as [string, string, string];
  await binary(bin, 'initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  if (asRoot) await run('runuser', ['-u', 'postgres', '--', 'mkdir', '-p', sockets]);
  else await mkdir(sockets, { recursive: true });
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const settings = (port: number) =>
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${sockets}'`,
      'wal_level = replica',
      'max_wal_senders = 4',
      'hot_standby = on',
      'hot_standby_feedback = on',
      'fsync = off',
      'full_page_writes = off',
      'shared_buffers = 16MB',
      'max_connections = 60',
      '',
    ].join('\n');
  await appendConf(join(primaryDir, 'postgresql.conf'), settings(primaryPort));
  const primary = cluster(bin, primaryDir, primaryPort);
  await primary.start();
  try {
    await binary(bin, 'pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ]);
    await appendConf(join(replicaDir, 'postgresql.conf'), `port = ${replicaPort}\n`);
    const replica = cluster(bin, replicaDir, replicaPort);
    await replica.start();
    await until(
      async () => (await query<{ standby: boolean }>(replica.url, 'SELECT pg_is_in_recovery() AS standby'))[0]!.standby,
      'the replica',
    );
    const caughtUp = async () => {
      const [{ lsn }] = (await query<{ lsn: string }>(primary.url, 'SELECT pg_current_wal_insert_lsn()::text AS lsn')) as [{ lsn: string }];
      await until(
        async () => (await query<{ ok: boolean }>(replica.url, `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS ok`))[0]!.ok,
        'the replica catching up',
      );
    };
    return {
      primary,
      replica: {
        ...replica,
        pauseReplay: async () => void (await query(replica.url, 'SELECT pg_wal_replay_pause()')),
        resumeReplay: async () => void (await query(replica.url, 'SELECT pg_wal_replay_resume()')),
        caughtUp,
      },
      stop: async () => {
        await replica.stop();
        await primary.stop();
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await primary.stop();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/** Appends to a cluster's postgresql.conf (owned by `postgres`; root may write it). */
async function appendConf(file: string, text: string): Promise<void> {
  await appendFile(file, `\n${text}`);
}
