import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESS } from '../../src/auth/access.ts';

// The table of actions (src/auth/access.ts) and docs/contract.md's "Who may do what" are twins: every action
// of the code is named in the contract under the caller its rule names, and the contract names no other.

const section = readFileSync(new URL('../../docs/contract.md', import.meta.url), 'utf8')
  .split('## Who may do what')[1]!
  .split('\n## ')[0]!;
const documented = new Map<string, string>();
for (const [, caller, actions] of section.matchAll(/^\| ([^|]+) \| ([^|]*`[a-z][A-Za-z]*\.[A-Za-z]+`[^|]*) \|$/gm))
  for (const [, action] of actions!.matchAll(/`([a-z][A-Za-z]*\.[A-Za-z]+)`/g)) documented.set(action!, caller!.trim());

const callerOf = { anyone: 'anyone', 'signed-in': 'any signed-in user', self: 'any signed-in user' } as Record<string, string>;

describe('the table of who may do what', () => {
  it('names in docs/contract.md every action of src/auth/access.ts, and no other', () => {
    expect([...documented.keys()].sort()).toEqual(Object.keys(ACCESS).sort());
  });

  it('gives each action, in the contract, to the caller its rule names', () => {
    for (const [action, rule] of Object.entries(ACCESS)) {
      const caller = documented.get(action);
      if (rule.who in callerOf) expect(caller, action).toBe(callerOf[rule.who]);
      else if (rule.who === 'staff') expect(caller, action).toBe('staff');
      else if (rule.who === 'teacher') expect(caller, action).toBe('a teacher of the classroom');
      else expect(caller, action).toBe('a teacher or a student of the lesson');
    }
  });
});
