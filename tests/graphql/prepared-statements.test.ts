import { describe, expect, it } from 'vitest';
import { fixture, ids, tokens } from '../kit/fixture.ts';
import { gatewayForTests } from '../kit/gateway.ts';

// What the hot reads leave prepared on a pooled connection of a PostgreSQL server (PGlite keeps no named
// statements). pg_prepared_statements shows only its own connection's statements: every request below is
// sent after the previous one answered, so the pool hands them all, and the final look, the connection it
// released last (the most recently released idle connection is the next one lent). The cap is a
// process-wide count: this file runs alone in its process, so no other test's selections count here.

const onServer = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onServer)('prepared statements on a PostgreSQL server', () => {
  // A token verified once stays so for the whole file: no token statement comes between the reads.
  const gateway = gatewayForTests({ TOKEN_CACHE_TTL: '1 minute' });

  /** This connection's prepared statements whose name starts with `prefix`, with how PostgreSQL planned them. */
  const preparedOnConnection = (prefix: string) =>
    gateway.database.read<{ name: string; generic_plans: string; custom_plans: string }>(
      'SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE starts_with(name, $1) ORDER BY name',
      [prefix],
    );

  it('a page of activities is planned once and its plan reused, not planned afresh at every execution', async () => {
    await gateway.reset({ ...fixture(), activities: [], classroomActivities: [], activitySessions: [] });
    // A catalogue of a realistic size, just loaded, as after an import: on a few rows any plan is as good as
    // another, and the planner has no statistics yet (autovacuum, which would gather them, is kept away).
    await gateway.database.prisma.$executeRawUnsafe('ALTER TABLE activities SET (autovacuum_enabled = false)');
    await gateway.database.prisma.$executeRawUnsafe(
      `INSERT INTO activities (uid, name) SELECT 'activity-' || n, 'Activity ' || n FROM generate_series(1, 5000) n`,
    );
    for (let page = 0; page < 12; page += 1) {
      const answer = await gateway.graphql('{ activities(first: 20) { totalCount edges { node { id } } } }', {}, tokens.owner);
      expect(answer.data.activities.totalCount).toBe(5000);
    }
    // PostgreSQL plans a prepared statement for its parameters 5 times, then keeps a generic plan when it is
    // judged no worse. With the page size as a parameter (LIMIT $2), it was judged worse every time, and each
    // execution was planned again (src/modules/activities/service.ts, pageStatement).
    const [page] = await preparedOnConnection('activity_page_count_21');
    expect(page).toBeDefined();
    expect(Number(page!.generic_plans)).toBeGreaterThanOrEqual(7);
    expect(Number(page!.custom_plans)).toBeLessThanOrEqual(5);
  });

  it('at most 200 read plans of a classroom activity are kept prepared, however many different selections come', async () => {
    await gateway.reset();
    const fields = [
      'activity { uid }',
      'unit { name }',
      'dueDate',
      'assignedStudentIds',
      'assignOnJoin',
      'locked',
      'pinned',
      'completed',
      'editionId',
    ];
    // 250 different subsets of the fields: as many read plans (src/modules/classroom-activities/read.ts).
    for (let subset = 1; subset <= 250; subset += 1) {
      const chosen = fields.filter((_, bit) => subset & (1 << bit));
      const answer = await gateway.graphql(
        `query($id: ID!) { classroomActivity(id: $id) { ${chosen.join(' ')} } }`,
        { id: String(ids.classroomActivity) },
        tokens.owner,
      );
      expect(Object.keys(answer.data.classroomActivity)).toHaveLength(chosen.length);
    }
    // All 250 ran on this connection: the first 200 plans under their names, the others unnamed.
    expect(await preparedOnConnection('classroom_activity_read_')).toHaveLength(200);
  });
});
