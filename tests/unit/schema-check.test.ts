import { describe, expect, it } from 'vitest';
import { compareSchemas } from '../../scripts/schema-check.ts';

// Schema evolution (scripts/schema-check.ts): a breaking change fails unless recorded with a reason; an
// addition passes; a dangerous one is reported.

const released = `
  type Query { activity(id: ID!): Activity }
  type Activity { id: ID! name: String! flag: String }
  enum Kind { A B }
  type Other { kind: Kind }
`;
const kinds = (check: Awaited<ReturnType<typeof compareSchemas>>) => ({
  unapproved: check.unapproved.map((change) => `${change.type} ${change.path}`),
  dangerous: check.dangerous.map((change) => `${change.type} ${change.path}`),
  safe: check.safe.map((change) => `${change.type} ${change.path}`),
  badApprovals: check.badApprovals,
});

describe('compareSchemas', () => {
  it('passes an added field and a description', async () => {
    const current = released.replace('flag: String }', '"The first flag." flag: String uid: String }');
    expect(kinds(await compareSchemas(released, current, []))).toEqual({
      unapproved: [],
      dangerous: [],
      safe: ['FIELD_ADDED Activity.uid', 'FIELD_DESCRIPTION_ADDED Activity.flag'],
      badApprovals: [],
    });
  });

  it('fails a removed field and a changed type, naming each', async () => {
    const current = released.replace(' flag: String', '').replace('name: String!', 'name: Int!');
    expect(kinds(await compareSchemas(released, current, [])).unapproved).toEqual([
      'FIELD_REMOVED Activity.flag',
      'FIELD_TYPE_CHANGED Activity.name',
    ]);
  });

  it('passes a breaking change recorded with a reason, and fails a record without one or for no change', async () => {
    const current = released.replace(' flag: String', '');
    const approved = await compareSchemas(released, current, [
      { type: 'FIELD_REMOVED', path: 'Activity.flag', reason: 'No client reads it (checked in the usage logs).' },
    ]);
    expect(kinds(approved).unapproved).toEqual([]);
    expect(approved.approved.map((change) => change.path)).toEqual(['Activity.flag']);
    const withoutReason = await compareSchemas(released, current, [{ type: 'FIELD_REMOVED', path: 'Activity.flag', reason: ' ' }]);
    expect(kinds(withoutReason).unapproved).toEqual(['FIELD_REMOVED Activity.flag']);
    expect(withoutReason.badApprovals).toEqual(['entry 0: needs a type, a path and a reason']);
    const stale = await compareSchemas(released, released, [{ type: 'FIELD_REMOVED', path: 'Activity.flag', reason: 'old' }]);
    expect(stale.badApprovals).toEqual(['FIELD_REMOVED Activity.flag: no such breaking change (stale: remove it)']);
    expect((await compareSchemas(released, released, {})).badApprovals).toHaveLength(1);
  });

  it('reports an added enum value as dangerous, and passes it', async () => {
    const check = kinds(await compareSchemas(released, released.replace('enum Kind { A B }', 'enum Kind { A B C }'), []));
    expect(check.dangerous).toEqual(['ENUM_VALUE_ADDED Kind.C']);
    expect(check.unapproved).toEqual([]);
  });
});
