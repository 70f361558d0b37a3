import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/auth/tokens.ts';
import { loadConfig } from '../../../src/config.ts';
import { openDatabase } from '../../../src/db/client.ts';
import { demoData, seedDemoData } from '../../../src/demo/seed.ts';
import { freshDatabaseEnv, startServerProcess, stopServerProcesses } from '../../kit/server-process.ts';

// The demo data is loaded into an empty database exactly once, and its token printed once, however many
// instances start on it together (src/demo/seed.ts takes a lock for the check and the load).

const serverUrl = process.env.DATABASE_URL;
const demoUserNames = demoData('teacher', 'staff').users.map((user) => user.name);

afterEach(() => stopServerProcesses());

describe('demo data on an empty database', () => {
  it('is loaded once, and its tokens returned once, when seedDemoData runs four times at once', async () => {
    // On the embedded database, an in-memory one: this test runs in the test's own process.
    const database = await openDatabase(loadConfig(serverUrl ? await freshDatabaseEnv('lgw_test_demo') : { DATA_DIR: 'memory://' }));
    try {
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
    } finally {
      await database.close();
    }
  });

  it.skipIf(!serverUrl)(
    'is loaded once by four servers started together on a fresh PostgreSQL database, and one of them prints the token (PostgreSQL only: four processes cannot share one embedded data folder)',
    async () => {
      const env = await freshDatabaseEnv('lgw_test_demo', { brandNew: true });

      const instances = await Promise.all([1, 2, 3, 4].map(() => startServerProcess(env)));

      const outputs = instances.map((instance) => instance.output());
      const printed = outputs.flatMap((output) => /A demo teacher's token: (\S+)/.exec(output)?.[1] ?? []);
      expect(printed, outputs.join('\n---\n')).toHaveLength(1);

      const client = new pg.Client({ connectionString: env.DATABASE_DIRECT_URL ?? env.DATABASE_URL });
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
