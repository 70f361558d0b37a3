import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixture, ids, lessonStudentNames, names, tokens, uids } from '../../kit/fixture.ts';
import type { Gateway } from '../../kit/gateway.ts';
import { freshTarget, runCommand, type Target } from '../../kit/commands.ts';
import { startServerProcess, stopServerProcesses } from '../../kit/server-process.ts';
import { graphql } from '../../kit/gql/index.ts';

// `npm run db:import -- FILE.json`, run for real on a database of the test's own (migrated and empty, but
// for the first test), then read back through the API. An embedded data folder can be opened by one
// process at a time: every gateway is closed before the next command runs.

const SLOW = 240_000;

let target: Target;
beforeEach(async () => {
  target = await freshTarget();
});
afterEach(async () => {
  await stopServerProcesses();
  await target.dispose();
});

/** The shared fixture with concept results and a hidden session's result, as a file would hold them. */
function file() {
  return {
    ...fixture(),
    conceptResults: [
      {
        activitySessionId: ids.sessions.ben,
        conceptId: ids.concepts.parallel,
        questionType: 'lessons-slide',
        metadata: { correct: 1, attemptNumber: 1, questionNumber: 1, answer: 'A' },
      },
      {
        activitySessionId: ids.sessions.chloe,
        conceptId: ids.concepts.compound,
        questionType: 'lessons-slide',
        metadata: { correct: 0, attemptNumber: 2, questionNumber: 1, answer: 'B' },
      },
    ],
  };
}

async function importFile(content: unknown, name = 'data.json') {
  const path = await target.writeJson(name, content);
  return { path, ...(await runCommand('import', [path], target.env)) };
}

const NESTED = graphql(`query ImportedClassroomActivity($id: ID!) {
  classroomActivity(id: $id) {
    id locked pinned assignedStudentIds assignOnJoin
    activity { uid }
    classroom { name teacher { name } }
    unit { name }
    studentNames { activitySessionUid name }
    sessions { uid state student { name } conceptResults { concept { uid } questionType metadata } }
  }
}`);

async function rowCounts(gateway: Gateway): Promise<Record<string, number>> {
  const rows = await gateway.database.prisma.$queryRawUnsafe<{ table_name: string; rows: number }[]>(`
    SELECT table_name, (xpath('/row/c/text()', query_to_xml(format('SELECT count(*) AS c FROM %I', table_name), false, true, '')))[1]::text::int AS rows
    FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
    ORDER BY table_name`);
  return Object.fromEntries(rows.map((row) => [row.table_name, row.rows]));
}

/** Every row, leaving out the update times that an upsert renews. */
async function contents(gateway: Gateway): Promise<string> {
  // The snapshot holds each row's JSON as a JSON string: its quotes are escaped.
  return (await gateway.snapshot()).replace(/(updated_at\\+": \\+")[^"\\]*/g, '$1…');
}

describe('npm run db:import', () => {
  it(
    'loads a file that the API then serves',
    async () => {
      // Into a database nothing has touched yet, as a first import finds it: the command migrates it first.
      await target.dispose();
      target = await freshTarget({ brandNew: true });
      const result = await importFile(file());
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      // One line of counts.
      expect(result.stdout.trim().split('\n')).toHaveLength(1);
      expect(result.stdout).toMatch(/8 users/);
      expect(result.stdout).toMatch(/3 activities/);
      expect(result.stdout).toMatch(/5 activitySessions/);
      expect(result.stdout).toMatch(/2 conceptResults/);

      await target.withGateway(async (gateway) => {
        const activity = await gateway.graphql(
          `{ activity(id: "${uids.lesson}") { id name flags flag data supportingInfo followUpActivity { uid } classification { key name } } }`,
        );
        expect(activity.data.activity).toEqual({
          id: String(ids.lesson),
          name: 'Parallel Structure',
          flags: ['production', 'beta'],
          flag: 'production',
          data: { questions: ['q1'] },
          supportingInfo: 'https://example.org/plan.pdf',
          followUpActivity: { uid: uids.followUp },
          classification: { key: 'lessons', name: 'Quill Lessons' },
        });
        // Imported records keep the flags the file gives, even none.
        expect((await gateway.graphql(graphql(`query ActivityFlags { activityFlags { uid flag } }`))).data!.activityFlags).toEqual([
          { uid: uids.lesson, flag: 'production' },
          { uid: uids.followUp, flag: 'production' },
          { uid: uids.lonelyActivity, flag: null },
        ]);

        // The tokens of the file sign their users in.
        const nested = await gateway.graphql(NESTED, { id: String(ids.classroomActivity) }, tokens.owner);
        expect(nested.errors).toBeUndefined();
        expect(nested.data!.classroomActivity).toEqual({
          id: String(ids.classroomActivity),
          locked: false,
          pinned: true,
          assignedStudentIds: ['11', '12', '13'],
          assignOnJoin: true,
          activity: { uid: uids.lesson },
          classroom: { name: names.classroom, teacher: { name: names.owner } },
          unit: { name: 'Sentence structure' },
          studentNames: lessonStudentNames,
          sessions: [
            {
              uid: uids.sessions.ben,
              state: 'STARTED',
              student: { name: names.ben },
              conceptResults: [
                {
                  concept: { uid: uids.concepts.parallel },
                  questionType: 'lessons-slide',
                  metadata: { correct: 1, attemptNumber: 1, questionNumber: 1, answer: 'A' },
                },
              ],
            },
            {
              uid: uids.sessions.chloe,
              state: 'STARTED',
              student: { name: names.chloe },
              conceptResults: [
                {
                  concept: { uid: uids.concepts.compound },
                  questionType: 'lessons-slide',
                  metadata: { correct: 0, attemptNumber: 2, questionNumber: 1, answer: 'B' },
                },
              ],
            },
            { uid: uids.sessions.dev, state: 'UNSTARTED', student: { name: names.dev }, conceptResults: [] },
          ],
        });
        expect((await gateway.graphql(graphql(`query ViewerRole { viewer { id role } }`), {}, tokens.staff)).data!.viewer).toEqual({
          id: String(ids.staff),
          role: 'STAFF',
        });
        expect(await gateway.graphql(NESTED, { id: String(ids.hiddenClassroomActivity) }, tokens.owner)).toMatchObject({
          data: { classroomActivity: null },
        });

        // Only the tokens' hashes are stored.
        const everything = await gateway.snapshot();
        for (const token of Object.values(tokens)) expect(everything).not.toContain(token);
      });
    },
    SLOW,
  );

  it(
    'can be run again: the same file changes nothing, a changed file updates records in place',
    async () => {
      const first = await importFile(file());
      expect(first.code).toBe(0);
      const [countsBefore, contentsBefore] = await target.withGateway(
        async (gateway) => [await rowCounts(gateway), await contents(gateway)] as const,
      );

      const again = await importFile(file());
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      expect(again.stdout).toBe(first.stdout);
      await target.withGateway(async (gateway) => {
        expect(await rowCounts(gateway)).toEqual(countsBefore);
        expect(await contents(gateway)).toBe(contentsBefore);
        expect((await gateway.graphql(graphql(`query ActivitiesCount { activities { totalCount } }`))).data!.activities.totalCount).toBe(3);
        const sessions = (await gateway.graphql(NESTED, { id: String(ids.classroomActivity) }, tokens.owner)).data!.classroomActivity!
          .sessions;
        expect(sessions.map((session) => session.conceptResults.length)).toEqual([1, 1, 0]);
      });

      // A changed record is updated in place, by id.
      const changed = file();
      changed.activities[0] = { ...changed.activities[0]!, name: 'Parallel Structure, revised', flags: ['archived'] } as never;
      expect((await importFile(changed, 'changed.json')).code).toBe(0);
      await target.withGateway(async (gateway) => {
        expect(await rowCounts(gateway)).toEqual(countsBefore);
        expect((await gateway.graphql(`{ activity(id: "${ids.lesson}") { uid name flag } }`)).data.activity).toEqual({
          uid: uids.lesson,
          name: 'Parallel Structure, revised',
          flag: 'archived',
        });
      });
    },
    SLOW,
  );

  it(
    'refuses a bad file, naming the record and the field, and writes nothing',
    async () => {
      expect((await importFile(file())).code).toBe(0);
      const before = await target.withGateway((gateway) => gateway.snapshot());

      // Good changes first, then an activity with no uid.
      const missingUid = file();
      missingUid.users.push({ id: 99, name: 'New Teacher', role: 'teacher' } as never);
      missingUid.activities[0]!.name = 'Should not be saved';
      delete (missingUid.activities[1] as { uid?: string }).uid;
      const noUid = await importFile(missingUid, 'no-uid.json');
      expect(noUid.code).toBe(1);
      expect(noUid.stdout).toBe('');
      expect(noUid.stderr).toContain(`activities[1] (id ${ids.followUp}): uid`);
      expect(noUid.stderr).not.toMatch(/\n\s+at /); // no stack trace

      // A classroom activity pointing at an unknown activity.
      const unknownActivity = file();
      unknownActivity.classroomActivities[0]!.activityId = 999 as never;
      const dangling = await importFile(unknownActivity, 'dangling.json');
      expect(dangling.code).toBe(1);
      expect(dangling.stdout).toBe('');
      expect(dangling.stderr).toContain(`classroomActivities[0] (id ${ids.classroomActivity}): activityId`);
      expect(dangling.stderr).toContain('999');

      // Two activities with one uid.
      const sharedUid = file();
      sharedUid.activities[2]!.uid = uids.lesson;
      const duplicate = await importFile(sharedUid, 'duplicate-uid.json');
      expect(duplicate.code).toBe(1);
      expect(duplicate.stderr).toContain(`activities[2] (id ${ids.lonelyActivity}): uid`);
      expect(duplicate.stderr).toContain(uids.lesson);
      expect(duplicate.stderr).not.toMatch(/\n\s+at /);

      // A uid already held by another activity in the database.
      const taken = await importFile({ activities: [{ id: 77, uid: uids.followUp, name: 'Taken uid' }] }, 'taken-uid.json');
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('activities[0] (id 77): uid');
      expect(taken.stderr).not.toMatch(/\n\s+at /);

      // One id twice in a list.
      const sameId = file();
      sameId.concepts.push({ id: ids.concepts.parallel, uid: 'another-concept-uid-01', name: 'Twin' } as never);
      const twice = await importFile(sameId, 'same-id.json');
      expect(twice.code).toBe(1);
      expect(twice.stderr).toContain(`concepts[2] (id ${ids.concepts.parallel}): id`);

      // Wrong types, and a file that is not JSON or not there.
      const wrongType = await importFile(
        {
          activities: [
            { id: 'ten', uid: 'x', name: 'X' },
            { id: 12, uid: 'y', name: 'Y', flags: 'beta' },
          ],
        },
        'types.json',
      );
      expect(wrongType.code).toBe(1);
      expect(wrongType.stderr).toContain('activities[0]');
      expect(wrongType.stderr).toContain('activities[1] (id 12): flags');
      const notJson = await importFile('{"users": [', 'broken.json');
      expect(notJson.code).toBe(1);
      expect(notJson.stderr).toMatch(/broken\.json.*not valid JSON/);
      const missing = await runCommand('import', [`${target.dir}/no-such-file.json`], target.env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('no-such-file.json');
      const noArgument = await runCommand('import', [], target.env);
      expect(noArgument.code).toBe(1);
      expect(noArgument.stderr).toMatch(/usage/i);

      expect(await target.withGateway((gateway) => gateway.snapshot())).toBe(before);
    },
    SLOW * 2,
  );

  it(
    'refuses a file that is not UTF-8, naming the byte offset, or a text holding a NUL, naming the record and field; writes nothing',
    async () => {
      expect((await importFile(file())).code).toBe(0);
      const before = await target.withGateway((gateway) => gateway.snapshot());

      // Latin-1 where UTF-8 belongs: the file is refused, not read with U+FFFD in place of the byte.
      const latin1 = Buffer.concat([
        Buffer.from('{"users": [{"id": 1, "name": "Ad', 'utf8'),
        Buffer.from([0xe9]),
        Buffer.from('a", "role": "teacher"}]}'),
      ]);
      const path = join(target.dir, 'latin1.json');
      await writeFile(path, latin1);
      const notUtf8 = await runCommand('import', [path], target.env);
      expect(notUtf8.code).toBe(1);
      expect(notUtf8.stdout).toBe('');
      expect(notUtf8.stderr).toMatch(/latin1\.json is not valid UTF-8/);
      expect(notUtf8.stderr).toContain(`byte offset ${latin1.indexOf(0xe9)}`);
      expect(notUtf8.stderr).not.toMatch(/\n\s+at /);

      // PostgreSQL stores no NUL in a text: named like any other bad field, not a driver's stack trace.
      const nul = file();
      nul.users[0]!.name = 'Ada\u0000Park';
      nul.activities[1]!.description = 'before\u0000after';
      // Nor an integer past its column's range.
      nul.classroomActivities[0]!.assignedStudentIds = [11, 3_000_000_000];
      const withNul = await importFile(nul, 'nul.json');
      expect(withNul.code).toBe(1);
      expect(withNul.stdout).toBe('');
      expect(withNul.stderr).toContain(`users[0] (id ${ids.owner}): name: must not contain a NUL character`);
      expect(withNul.stderr).toContain(`activities[1] (id ${ids.followUp}): description: must not contain a NUL character`);
      expect(withNul.stderr).toContain(`classroomActivities[0] (id ${ids.classroomActivity}): assignedStudentIds[1]`);
      expect(withNul.stderr).not.toMatch(/\n\s+at |prisma/i);

      expect(await target.withGateway((gateway) => gateway.snapshot())).toBe(before);
    },
    SLOW,
  );

  it.skipIf(process.env.DATABASE_URL)(
    'refuses an embedded data folder a running server holds (PGlite cannot share one), and imports once it has stopped',
    async () => {
      const server = await startServerProcess({ ...target.env, DEMO_DATA: '0' });
      const held = await importFile(file());
      expect(held.code).toBe(1);
      expect(held.stdout).toBe('');
      expect(held.stderr).toMatch(/is in use by process \d+/);
      expect(held.stderr).toContain(String(server.child.pid));
      expect(held.stderr).not.toMatch(/\n\s+at /);
      // Killed, it leaves its claim behind: the next command finds no such process and takes the folder.
      await stopServerProcesses();
      const imported = await importFile(file());
      expect(imported.stderr).toBe('');
      expect(imported.code).toBe(0);
      expect(imported.stdout).toMatch(/8 users/);
    },
    SLOW,
  );

  it(
    'stops on a bad setting, naming it',
    async () => {
      const path = await target.writeJson('data.json', file());
      const result = await runCommand('import', [path], { ...target.env, DATABASE_URL: 'mysql://nope' });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('DATABASE_URL');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    },
    SLOW,
  );

  it(
    'moves the id sequences past the imported ids',
    async () => {
      const data = file();
      data.activities.push({ id: 500, uid: 'imported-activity-500', name: 'High id', flags: ['production'] } as never);
      expect((await importFile(data)).code).toBe(0);
      await target.withGateway(async (gateway) => {
        const created = await gateway.graphql(
          graphql(`mutation CreateAfterImport { createActivity(input: { name: "Made after the import" }) { id flags } }`),
          {},
          tokens.staff,
        );
        expect(created.errors).toBeUndefined();
        expect(Number(created.data!.createActivity.id)).toBeGreaterThan(500);
        expect(created.data!.createActivity.flags).toEqual(['beta']);
        // Milestones and objectives are not imported, but work alongside imported users.
        expect(
          (await gateway.graphql(graphql(`mutation PublishEdition { publishEdition { user { id } } }`), {}, tokens.owner)).errors,
        ).toBeUndefined();
      });

      // A later import with higher ids moves them again.
      expect((await importFile({ activities: [{ id: 2000, uid: 'imported-activity-2000', name: 'Higher id' }] }, 'more.json')).code).toBe(
        0,
      );
      await target.withGateway(async (gateway) => {
        const created = await gateway.graphql(
          graphql(`mutation CreateAfterSecondImport { createActivity(input: { name: "Made after the second import" }) { id } }`),
          {},
          tokens.staff,
        );
        expect(Number(created.data!.createActivity.id)).toBeGreaterThan(2000);
        expect(
          (await gateway.graphql(graphql(`query ActivitiesCountUpTo100 { activities(first: 100) { totalCount } }`))).data!.activities
            .totalCount,
        ).toBe(7);
      });
    },
    SLOW,
  );
});
