// docs/contract.md, REST routes and finish_lesson, under fire: generated finish_lesson bodies whose concept
// results are malformed or hostile (wrong types, missing fields, blank, huge and hostile strings, unknown
// uids, another teacher's session, pollution keys, duplicates around them) sent by the owner: 422 naming
// exactly the offenders, never a 500, and the database byte-for-byte unchanged.

import { expect, it } from 'vitest';
import { gatewayForTests } from '../../kit/gateway.ts';
import { assertRejectedWithoutChange } from './finish-lesson-fuzz.ts';
import { invalidObjectBody } from './hostile.ts';

export const RUNS = 500;

const gateway = gatewayForTests();

it(`rejects ${RUNS} generated bodies with offending concept results or top-level fields (422), changing nothing`, async () => {
  const started = Date.now();
  expect(await assertRejectedWithoutChange(gateway, invalidObjectBody, RUNS)).toBe(RUNS);
  console.info(`finish_lesson fuzz (422): ${RUNS} cases in ${Date.now() - started} ms`);
}, 120_000);
