import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshTarget, runCommand } from '../../kit/commands.ts';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { cutListeners, startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';

// Public reads' tags (docs/operations.md, HTTP caching) move at once on every instance, whoever changes the
// catalogue (the import command, another instance), and an instance that cannot hear the database vouches
// for no tag from memory. On one instance: tests/integration/operations/public-cache.test.ts.

const SLOW = 240_000;
const FLAGS = '/api/v1/activities/uids_and_flags';
const onServer = Boolean(process.env.DATABASE_URL);

/** A catalogue in the import format: one classification, two activities. */
const catalogue = (flag: string) => ({
  classifications: [{ id: 6, key: 'lessons', name: 'Quill Lessons' }],
  activities: [
    { id: 10, uid: 'imported-lesson-000001', name: 'Imported', flags: [flag], data: {}, classificationId: 6 },
    { id: 11, uid: 'imported-lesson-000002', name: 'Imported too', flags: ['beta'], data: {}, classificationId: 6 },
  ],
});

/** uids_and_flags: its tag and its body. */
async function flagsOf(gateway: Gateway, tag?: string) {
  const answer = await gateway.rest('GET', FLAGS, tag ? { headers: { 'if-none-match': tag } } : {});
  return { status: answer.status, tag: answer.headers.etag as string | undefined, body: answer.body };
}

describe('the import command', () => {
  it(
    'moves the tags: a request naming one from before the import gets the imported data',
    async () => {
      const target = await freshTarget();
      try {
        const write = async (flag: string) => {
          const result = await runCommand('import', [await target.writeJson(`${flag}.json`, catalogue(flag))], target.env);
          expect(result.stderr).toBe('');
          expect(result.code).toBe(0);
        };
        await write('production');
        const before = await target.withGateway(async (gateway) => {
          const read = await flagsOf(gateway);
          expect(read.body['imported-lesson-000001']).toEqual({ flag: 'production' });
          expect((await flagsOf(gateway, read.tag)).status).toBe(304);
          return read.tag!;
        });

        // Embedded, the command has the data folder to itself (no gateway open): the tag holds across restarts.
        await write('archived');
        await target.withGateway(async (gateway) => {
          const after = await flagsOf(gateway, before);
          expect(after.status).toBe(200);
          expect(after.body['imported-lesson-000001']).toEqual({ flag: 'archived' });
          expect(after.tag).not.toBe(before);
          expect((await flagsOf(gateway, after.tag)).status).toBe(304);
        });
      } finally {
        await target.dispose();
      }
    },
    SLOW,
  );

  it.skipIf(!onServer)(
    'on a PostgreSQL server, an instance running while the command imports hears it at once',
    async () => {
      const target = await freshTarget();
      const gateway = await startGateway(target.env);
      try {
        const imported = await runCommand('import', [await target.writeJson('first.json', catalogue('production'))], target.env);
        expect(imported.code).toBe(0);
        await gateway.heardAllSoFar();
        const before = await flagsOf(gateway);
        expect(before.body['imported-lesson-000001']).toEqual({ flag: 'production' });

        const again = await runCommand('import', [await target.writeJson('second.json', catalogue('alpha'))], target.env);
        expect(again.code).toBe(0);
        await gateway.heardAllSoFar();
        const after = await flagsOf(gateway, before.tag);
        expect(after.status).toBe(200);
        expect(after.body['imported-lesson-000001']).toEqual({ flag: 'alpha' });
      } finally {
        await gateway.close();
        await target.dispose();
      }
    },
    SLOW,
  );
});

describe.skipIf(!onServer)('on a PostgreSQL server, across instances', () => {
  const gateways: Gateway[] = [];
  afterAll(async () => {
    for (const gateway of gateways.reverse()) await gateway.close();
  });

  it('two instances give the same tag; a change through one moves it on the other at once', async () => {
    const a = await startGateway();
    gateways.push(a);
    const b = await startGateway({ DATABASE_URL: a.databaseUrl! });
    gateways.push(b);
    await a.reset();
    await b.heardAllSoFar();

    const tag = (await flagsOf(a)).tag!;
    expect((await flagsOf(b)).tag).toBe(tag);
    expect((await flagsOf(b, tag)).status).toBe(304);

    const renamed = await a.rest('PUT', `/api/v1/activities/${uids.lonelyActivity}`, {
      token: tokens.staff,
      body: { activity: { flags: ['archived'] } },
    });
    expect(renamed.status).toBe(200);
    await b.heardAllSoFar();
    const onB = await flagsOf(b, tag);
    expect(onB.status).toBe(200);
    expect(onB.body[uids.lonelyActivity]).toEqual({ flag: 'archived' });
    expect(onB.tag).not.toBe(tag);
    await a.heardAllSoFar();
    expect((await flagsOf(a)).tag).toBe(onB.tag);
  });

  it('while the listening connection is down, a tag is vouched for by the database, never by memory', async () => {
    const gateway: ListeningGateway = await startListeningGateway();
    gateways.push(gateway);
    await gateway.reset();
    const before = await flagsOf(gateway);
    // Listening: the 304 costs no statement (the version is in memory).
    const statements = gateway.statements();
    expect((await flagsOf(gateway, before.tag)).status).toBe(304);
    expect(gateway.statements()).toBe(statements);

    // On the server's own database: a database cannot refuse connections while connected to itself.
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const database = new URL(gateway.databaseUrl!).pathname.slice(1);
    try {
      // The listener is cut and kept from coming back; the change it would have heard is made meanwhile.
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
      try {
        await cutListeners(admin, database);
        await gateway.waitForLog('lesson events: lost the listening connection, reconnecting');
        await gateway.database.prisma.$executeRaw`UPDATE activities SET flags = '{private}' WHERE id = ${ids.lesson}`;

        const stale = await flagsOf(gateway, before.tag);
        expect(stale.status).toBe(200);
        expect(stale.body[uids.lesson]).toEqual({ flag: 'private' });
        // The new tag holds, vouched for by the database: one statement for the version, none for the data.
        const read = gateway.statements();
        expect((await flagsOf(gateway, stale.tag)).status).toBe(304);
        expect(gateway.statements()).toBe(read + 1);
      } finally {
        await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      }
      await waitFor(() => gateway.logs().filter((line) => line.msg === 'lesson events: listening').length >= 2, 'listening again');
    } finally {
      await admin.end();
    }
    // Listening again: the version is in memory once more (the full read learnt it).
    const current = await flagsOf(gateway);
    const again = gateway.statements();
    expect((await flagsOf(gateway, current.tag)).status).toBe(304);
    expect(gateway.statements()).toBe(again);
  });
});
