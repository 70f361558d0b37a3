import { describe, expect, it } from 'vitest';
import type { SqlRead } from '../../src/db/client.ts';
import { CatalogueVersion } from '../../src/http/catalogue-version.ts';
import { readCatalogueVersion } from '../../src/modules/activities/catalogue-version.ts';

// The catalogue's version (src/http/catalogue-version.ts), with the database's row as a variable: kept in
// memory only while the listener hears every change, and read afresh after a change of this instance's own.

function catalogueAt(version: string) {
  const database = { version, reads: 0 };
  const read = (async () => {
    database.reads += 1;
    return [{ version: database.version }];
  }) as SqlRead;
  return { database, catalogue: new CatalogueVersion(() => readCatalogueVersion(read)) };
}

describe('CatalogueVersion', () => {
  it('while listening, answers from memory what it read or heard; not listening, asks the database each time', async () => {
    const { database, catalogue } = catalogueAt('5');
    expect(await catalogue.current()).toBe('5');
    expect(await catalogue.current()).toBe('5');
    expect(database.reads).toBe(2);
    catalogue.listenerState('listening');
    expect(await catalogue.current()).toBe('5');
    const reads = database.reads;
    database.version = '6';
    catalogue.changed('6');
    expect(await catalogue.current()).toBe('6');
    expect(database.reads).toBe(reads);
    catalogue.changed('4');
    expect(await catalogue.current()).toBe('6');
  });

  it('after a change of its own, reads the database once, before its notification arrives, then keeps what it read', async () => {
    const { database, catalogue } = catalogueAt('5');
    catalogue.listenerState('listening');
    expect(await catalogue.current()).toBe('5');
    database.version = '6';
    catalogue.mayHaveMoved();
    const reads = database.reads;
    expect(await catalogue.current()).toBe('6');
    expect(await catalogue.current()).toBe('6');
    expect(database.reads).toBe(reads + 1);
    catalogue.changed('6');
    expect(await catalogue.current()).toBe('6');
  });
});
