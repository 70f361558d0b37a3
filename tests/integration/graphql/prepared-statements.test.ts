import { describe, expect, it } from 'vitest';
import { fixture, ids, tokens } from '../../kit/fixture.ts';
import { gatewayForTests, type Gateway } from '../../kit/gateway.ts';
import { NESTED_CLASSROOM_ACTIVITY_QUERY, readClassroomActivity } from '../../kit/graphql.ts';
import { graphql } from '../../kit/gql/index.ts';

// The hot reads' named statements (src/db/client.ts, SqlRead): how many a classroom activity's selections
// make, and whether PostgreSQL keeps one plan for each. PGlite keeps no named statements, so what is left
// prepared is looked at on a PostgreSQL server only. pg_prepared_statements shows only its own
// connection's statements: every request below is sent after the previous one answered, so the pool hands
// them all, and the final look, the connection it released last (the most recently released idle
// connection is the next one lent). The cap on names built from selections is counted by each gateway
// (src/db/client.ts, MAX_SHAPED_STATEMENTS).

const onServer = Boolean(process.env.DATABASE_URL);

const FIRST_ACTIVITIES = graphql(`query FirstActivities { activities(first: 20) { totalCount edges { node { id } } } }`);

// A token verified once stays so for the whole file (the default 5 s could lapse midway and add a statement).
const gateway = gatewayForTests({ TOKEN_CACHE_TTL: '1 minute' });

/** This connection's prepared statements whose name starts with `prefix`, with how PostgreSQL planned them. */
const preparedOnConnection = (prefix: string, on: Gateway = gateway) =>
  on.database.read<{ name: string; generic_plans: string; custom_plans: string }>(
    'SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE starts_with(name, $1) ORDER BY name',
    [prefix],
  );

describe('many different selections of a classroom activity', () => {
  it(`each is answered in one statement, and at most 200 of them are kept as named statements${onServer ? '' : ' (what stays prepared: on a server only)'}`, async () => {
    const id = String(ids.classroomActivity);
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
    const all = (await gateway.graphql(`query($id: ID!) { classroomActivity(id: $id) { ${fields.join(' ')} } }`, { id }, tokens.owner)).data
      .classroomActivity;
    // 250 different subsets of the fields: as many view plans (src/modules/classroom-activities/view-plan.ts).
    for (let subset = 1; subset <= 250; subset += 1) {
      const chosen = fields.filter((_, bit) => subset & (1 << bit));
      const before = gateway.statements();
      const answer = await gateway.graphql(`query($id: ID!) { classroomActivity(id: $id) { ${chosen.join(' ')} } }`, { id }, tokens.owner);
      const statements = gateway.statements() - before;
      const expected = Object.fromEntries(chosen.map((field) => field.split(' ')[0]!).map((key) => [key, all[key]]));
      expect(answer).toEqual({ status: 200, data: { classroomActivity: expected } });
      // The activity is its loader's own statement.
      expect(statements).toBe(chosen[0] === 'activity { uid }' ? 2 : 1);
    }
    // All 251 plans ran on this connection: the first 200 under their names, the others unnamed.
    if (onServer) expect(await preparedOnConnection('classroom_activity_read_')).toHaveLength(200);
  });
});

describe.skipIf(!onServer)('a page of activities on a PostgreSQL server', () => {
  it('is planned once and its plan reused, not planned afresh at every execution', async () => {
    await gateway.reset({ ...fixture(), activities: [], classroomActivities: [], activitySessions: [] });
    // A catalogue of a realistic size, just loaded, as after an import: on a few rows any plan is as good as
    // another, and the planner has no statistics yet (autovacuum, which would gather them, is kept away).
    await gateway.database.prisma.$executeRawUnsafe('ALTER TABLE activities SET (autovacuum_enabled = false)');
    await gateway.database.prisma.$executeRawUnsafe(
      `INSERT INTO activities (uid, name) SELECT 'activity-' || n, 'Activity ' || n FROM generate_series(1, 5000) n`,
    );
    for (let page = 0; page < 12; page += 1) {
      const answer = await gateway.graphql(FIRST_ACTIVITIES, {}, tokens.owner);
      expect(answer.data!.activities.totalCount).toBe(5000);
    }
    // PostgreSQL plans a prepared statement for its parameters 5 times, then keeps a generic plan when it is
    // judged no worse. With the page size as a parameter (LIMIT $2), it was judged worse every time, and each
    // execution was planned again (src/modules/activities/read.ts, pageStatement).
    const [page] = await preparedOnConnection('activity_page_count_21');
    expect(page).toBeDefined();
    expect(Number(page!.generic_plans)).toBeGreaterThanOrEqual(7);
    expect(Number(page!.custom_plans)).toBeLessThanOrEqual(5);
  });
});

describe.skipIf(!onServer)('with DATABASE_PREPARED_STATEMENTS=0, on a PostgreSQL server', () => {
  const unnamed = gatewayForTests({ TOKEN_CACHE_TTL: '1 minute', DATABASE_PREPARED_STATEMENTS: '0' });

  /** The hot reads, each of which names its statement by default: activities (a page, by uid), a classroom activity, REST. */
  const hotReads = async (on: Gateway) => {
    const page = await on.graphql(FIRST_ACTIVITIES, {}, tokens.owner);
    expect(page.errors).toBeUndefined();
    expect((await on.rest('GET', '/api/v1/activities/uids_and_flags')).status).toBe(200);
    expect((await readClassroomActivity(on))?.locked).toBe(false);
    const nested = await on.graphql(NESTED_CLASSROOM_ACTIVITY_QUERY, { id: String(ids.classroomActivity) }, tokens.owner);
    expect(nested.errors).toBeUndefined();
    expect(
      (await on.rest('GET', `/api/v1/classroom_activities/${ids.classroomActivity}/student_names`, { token: tokens.owner })).status,
    ).toBe(200);
  };

  it('the hot reads are sent unnamed: none is left prepared on the connection, where by default they are', async () => {
    await hotReads(unnamed);
    expect(await preparedOnConnection('', unnamed)).toEqual([]);
    await hotReads(gateway);
    expect((await preparedOnConnection('', gateway)).length).toBeGreaterThan(0);
  });
});
