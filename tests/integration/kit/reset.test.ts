import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, ids, tokens } from '../../kit/fixture.ts';
import { gatewayForTests, tables } from '../../kit/gateway.ts';
import { expectCached, viewerWith } from '../../kit/graphql.ts';
import { graphql } from '../../kit/gql/index.ts';

// The kit's reset between tests (tests/kit/template.ts): whatever a test wrote, and however, the next test
// finds the shared fixture exactly as loading it through the import leaves it, id sequences included, and
// an instance that remembers no token, as emptying the tables and importing the fixture did.

const gateway = gatewayForTests();

/** Every row of every table (times of creation and update left out), and where each id sequence stands. */
async function contents(): Promise<string> {
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await gateway.database.read<{ row: string }>(
      `SELECT (to_jsonb(t) - 'created_at' - 'updated_at')::text AS row FROM "${table}" t ORDER BY 1`,
      [],
    );
    const [sequence] = await gateway.database.read<{ name: string | null }>(`SELECT pg_get_serial_sequence($1, 'id') AS name`, [
      `"${table}"`,
    ]);
    const [position] = sequence?.name
      ? await gateway.database.read<{ at: string }>(`SELECT last_value || '/' || is_called AS at FROM ${sequence.name}`, [])
      : [];
    parts.push(`${table} (${position?.at ?? 'no sequence'}): ${rows.map((row) => row.row).join(', ')}`);
  }
  return parts.join('\n');
}

let imported: string;
beforeAll(async () => {
  await gateway.reset(fixture());
  imported = await contents();
});

describe('between tests', () => {
  it('a copy of the template holds what importing the fixture makes, sequences included', async () => {
    await gateway.reset();
    expect(await contents()).toBe(imported);
  });

  it('what a test wrote is undone, through the API or through SQL', async () => {
    const created = await gateway.graphql(
      graphql(`mutation CreateExtraActivity { createActivity(input: { name: "Extra" }) { id } }`),
      {},
      tokens.staff,
    );
    expect(created.errors).toBeUndefined();
    await gateway.writeTokensOrUsers((prisma) => prisma.$executeRawUnsafe(`DELETE FROM users WHERE id = ${ids.otherTeacher}`));
    expect(await contents()).not.toBe(imported);
    await gateway.reset();
    expect(await contents()).toBe(imported);
  });

  it('so is a transaction rolled back, which moved a sequence', async () => {
    const rolledBack = gateway.database.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`INSERT INTO units (name) VALUES ('rolled back')`);
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    expect(await contents()).not.toBe(imported);
    await gateway.reset();
    expect(await contents()).toBe(imported);
  });

  it('an instance remembers no token after a reset, even when nothing was written', async () => {
    await expectCached(gateway, tokens.owner);
    await gateway.reset();
    expect((await viewerWith(gateway, tokens.owner)).statements).toBe(1);
  });
});
