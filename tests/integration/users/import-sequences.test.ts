import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../../src/db/transaction.ts';
import { importData } from '../../../src/import/import-data.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';

// The import (npm run db:import) beside live traffic: it moves each id sequence past the ids it wrote, and
// never backwards, not past a value another writer has taken (docs/contract.md, Running it): a later insert never reuses an id.

const unitsFile = { units: [{ id: 1, name: 'Sentence structure' }] };
const runImport = (gateway: Gateway, file: unknown) => inTransaction(gateway.database.prisma, (tx) => importData(tx, file));
const newUnit = (gateway: Gateway, name: string) => gateway.database.prisma.unit.create({ data: { name }, select: { id: true } });

describe('the import and the id sequences', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway?.close());

  it('leaves a sequence that is already past the imported ids where it is', async () => {
    // Ids taken then freed: the sequence stays past them, as PostgreSQL's own do.
    const taken = [await newUnit(gateway, 'a'), await newUnit(gateway, 'b'), await newUnit(gateway, 'c')].map((unit) => unit.id);
    await gateway.database.prisma.unit.deleteMany({ where: { id: { in: taken } } });
    await runImport(gateway, unitsFile);
    expect((await newUnit(gateway, 'after the import')).id).toBeGreaterThan(Math.max(...taken));
  });

  it.skipIf(!process.env.DATABASE_URL)('never hands out again an id a concurrent transaction has taken', async () => {
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let inserted!: (id: number) => void;
    const insertedId = new Promise<number>((resolve) => (inserted = resolve));
    // A writer (a finish, a launch) has taken the next id and not committed yet.
    const writer = gateway.database.prisma.$transaction(
      async (tx) => {
        inserted((await tx.unit.create({ data: { name: 'concurrent' }, select: { id: true } })).id);
        await committing;
      },
      { timeout: 30_000 },
    );
    const writersId = await insertedId;
    const imported = runImport(gateway, unitsFile);
    // The import may wait for the writer (it must see its row); the writer commits meanwhile.
    await waitUntil(async () => (await blockedStatements(gateway)) > 0, 2_000);
    commit();
    await writer;
    await imported;
    const next = await newUnit(gateway, 'after both');
    expect(next.id).toBeGreaterThan(writersId);
  });

  it.skipIf(!process.env.DATABASE_URL)('runs imports started together one after the other, each complete, none deadlocked', async () => {
    // Each file writes several tables, as a real one does; four at once overlap on every table they lock.
    const file = (n: number) => ({
      units: Array.from({ length: 20 }, (_, i) => ({ id: 1000 + n * 100 + i, name: `unit ${n}.${i}` })),
      classifications: Array.from({ length: 20 }, (_, i) => ({ id: 1000 + n * 100 + i, key: `k${n}-${i}`, name: `c ${n}.${i}` })),
      concepts: Array.from({ length: 20 }, (_, i) => ({ id: 1000 + n * 100 + i, uid: `concept-${n}-${i}`, name: `concept ${n}.${i}` })),
    });
    const counts = await Promise.all([0, 1, 2, 3].map((n) => runImport(gateway, file(n))));
    expect(counts.map((count) => [count.units, count.classifications, count.concepts])).toEqual(Array(4).fill([20, 20, 20]));
    expect(await gateway.database.prisma.concept.count({ where: { id: { gte: 1000, lt: 1400 } } })).toBe(80);
  });
});

async function blockedStatements(gateway: Gateway): Promise<number> {
  const [row] = await gateway.database.read<{ n: number }>('SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted', []);
  return row!.n;
}

/** Polls `condition` until it holds or `ms` have passed (then goes on: an import that does not wait is what fails). */
async function waitUntil(condition: () => Promise<boolean>, ms: number): Promise<void> {
  for (const start = Date.now(); Date.now() - start < ms; await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (await condition()) return;
  }
}
