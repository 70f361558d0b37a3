// docs/contract.md, REST routes and finish_lesson, under fire: generated finish_lesson bodies of the wrong
// shape: not a JSON object (400), more than 10,000 concept results (413), past the body limit (413), and
// objects wrong somewhere (422), as JSON and as the lessons client's form. Sent by the owner: never a 500,
// the `meta` envelope, and the database byte-for-byte unchanged.

import fc from 'fast-check';
import { expect, it } from 'vitest';
import { gatewayForTests } from '../../kit/gateway.ts';
import { tokens } from '../../kit/fixture.ts';
import { finishLessonPath } from '../../kit/rest.ts';
import { assertRejectedWithoutChange } from './finish-lesson-fuzz.ts';
import { digest, invalidObjectBody, notAnObjectBody, SEED, tooManyBody } from './hostile.ts';

export const RUNS = 500;

const gateway = gatewayForTests();

it(`rejects ${RUNS} generated bodies: not an object (400), too many results (413), wrong objects (422); nothing changes`, async () => {
  const started = Date.now();
  const cases = fc.oneof(
    { arbitrary: notAnObjectBody, weight: 4 },
    { arbitrary: tooManyBody, weight: 1 },
    { arbitrary: invalidObjectBody, weight: 3 },
  );
  expect(await assertRejectedWithoutChange(gateway, cases, RUNS, SEED + 1)).toBe(RUNS);
  console.info(`finish_lesson fuzz (400/413/422): ${RUNS} cases in ${Date.now() - started} ms`);
}, 120_000);

it('rejects text that is not JSON, broken forms and a body past the limit (400/413), changing nothing', async () => {
  const baseline = await digest(gateway);
  const big = 'x'.repeat(gateway.config.bodyLimit + 1);
  const cases: { payload: string; type: string; status: number }[] = [
    { payload: '{"concept_results": [', type: 'application/json', status: 400 },
    { payload: 'not json', type: 'application/json', status: 400 },
    { payload: '{"a":1}{"b":2}', type: 'application/json', status: 400 },
    { payload: '\u0000', type: 'application/json', status: 400 },
    { payload: 'null', type: 'application/json', status: 400 },
    { payload: '{"__proto__": {"follow_up": "x"}, "follow_up": 7}', type: 'text/plain', status: 422 },
    { payload: 'json=%7B%22concept_results%22%3A', type: 'application/x-www-form-urlencoded', status: 400 },
    { payload: 'not_json=%7B%7D', type: 'application/x-www-form-urlencoded', status: 400 },
    { payload: 'json=null', type: 'application/x-www-form-urlencoded', status: 400 },
    {
      payload: '--x\r\nContent-Disposition: form-data; name="json"\r\n\r\n[1,2]\r\n--x--\r\n',
      type: 'multipart/form-data; boundary=x',
      status: 400,
    },
    { payload: '--x\r\nbroken', type: 'multipart/form-data; boundary=x', status: 400 },
    { payload: JSON.stringify({ concept_results: [], padding: big }), type: 'application/json', status: 413 },
    { payload: `json=${big}`, type: 'application/x-www-form-urlencoded', status: 413 },
  ];
  for (const { payload, type, status } of cases) {
    const answer = await gateway.rest('PUT', finishLessonPath(), { token: tokens.owner, payload, headers: { 'content-type': type } });
    expect(answer.status, `${payload.slice(0, 60)} → ${answer.text.slice(0, 200)}`).toBe(status);
    expect(Object.keys(answer.body.meta).sort()).toEqual(['errors', 'message', 'status']);
  }
  expect(await digest(gateway)).toBe(baseline);
});

it('never lets a pollution key reach Object.prototype', async () => {
  // Sent as the owner and as a stranger, on a route that then fails: nothing may leak into the process.
  const payload =
    '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "concept_results": [{"__proto__": {"polluted": "yes"}}]}';
  for (const token of [tokens.owner, tokens.otherTeacher]) {
    const answer = await gateway.rest('PUT', finishLessonPath(), { token, payload, headers: { 'content-type': 'application/json' } });
    expect([403, 422]).toContain(answer.status);
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
});
