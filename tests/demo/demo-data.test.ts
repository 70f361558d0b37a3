import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startCommand } from '../../scripts/start-command.mjs';
import { hashToken } from '../../src/auth/tokens.ts';
import { openDatabase } from '../../src/db/client.ts';
import { demoData, seedDemoData } from '../../src/demo/seed.ts';
import { freshServerDatabase } from '../kit/gateway.ts';

// The demo data is loaded into an empty database exactly once, and its token printed once, however many
// instances start on it together (src/demo/seed.ts takes a lock for the check and the load).

const root = fileURLToPath(new URL('../..', import.meta.url));
const serverUrl = process.env.DATABASE_URL;
const demoUserNames = demoData('teacher', 'staff').users.map((user) => user.name);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh database on the server (DATABASE_URL), dropped after the test; undefined on the embedded one. */
async function freshDatabaseUrl(): Promise<string | undefined> {
  if (!serverUrl) return undefined;
  const database = await freshServerDatabase(serverUrl, 'lgw_test_demo');
  cleanups.push(database.drop);
  return database.url;
}

type Instance = { child: ChildProcess; port: number; output: () => string };

/** Spawns the server as `npm start` runs it (the bundle is built by the caller) and waits until it listens. */
function startInstance(databaseUrl: string): Promise<Instance> {
  const { DATABASE_URL: _server, ...inherited } = process.env;
  const child = spawn(process.execPath, startCommand(root).nodeArgs, {
    cwd: root,
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: '1', LOG_LEVEL: 'info', DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  });
  return new Promise<Instance>((resolve, reject) => {
    const timer = setInterval(() => {
      // The token lines are printed in the same write as this one (src/main.ts).
      const match = /Lessons gateway on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve({ child, port: Number(match[1]), output: () => output });
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`The server did not start:\n${output}`));
      }
    }, 50);
  });
}

describe('demo data on an empty database', () => {
  it('is loaded once, and its tokens returned once, when seedDemoData runs four times at once', async () => {
    const database = await openDatabase({ databaseUrl: await freshDatabaseUrl(), dataDir: 'memory://' });
    cleanups.push(() => database.close());

    const results = await Promise.all([1, 2, 3, 4].map(() => seedDemoData(database.prisma)));

    const loaded = results.filter((result) => result !== null);
    expect(loaded).toHaveLength(1);
    expect(await database.prisma.accessToken.count()).toBe(2);
    expect((await database.prisma.user.findMany({ orderBy: { id: 'asc' } })).map((user) => user.name)).toEqual(demoUserNames);
    const teacherToken = await database.prisma.accessToken.findUnique({ where: { tokenHash: hashToken(loaded[0]!.teacherToken) } });
    expect(teacherToken?.userId).toBe(1);

    // Started again later, on a database that has users: nothing is loaded.
    expect(await seedDemoData(database.prisma)).toBeNull();
    expect(await database.prisma.accessToken.count()).toBe(2);
  });

  it.skipIf(!serverUrl)(
    'is loaded once by four servers started together on a fresh PostgreSQL database, and one of them prints the token (PostgreSQL only: four processes cannot share one embedded data folder)',
    async () => {
      const databaseUrl = (await freshDatabaseUrl())!;
      const start = startCommand(root);
      for (const [command, ...args] of start.steps) execFileSync(command === 'node' ? process.execPath : command!, args, { cwd: root });

      const instances = await Promise.all([1, 2, 3, 4].map(() => startInstance(databaseUrl)));

      const outputs = instances.map((instance) => instance.output());
      const printed = outputs.flatMap((output) => /A demo teacher's token: (\S+)/.exec(output)?.[1] ?? []);
      expect(printed, outputs.join('\n---\n')).toHaveLength(1);

      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        expect((await client.query('SELECT count(*)::int AS n FROM access_tokens')).rows[0].n).toBe(2);
        expect((await client.query('SELECT name FROM users ORDER BY id')).rows.map((row) => row.name)).toEqual(demoUserNames);
      } finally {
        await client.end();
      }

      for (const { port } of instances) {
        const answer = await fetch(`http://127.0.0.1:${port}/api/v1/classroom_activities/100/student_names`, {
          headers: { authorization: `Bearer ${printed[0]}` },
        });
        expect(answer.status).toBe(200);
      }
    },
    180_000,
  );
});
