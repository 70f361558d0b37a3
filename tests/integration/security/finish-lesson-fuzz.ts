// The REST property shared by the finish_lesson fuzz files: a hostile body sent by the classroom's owner
// gets exactly the 400/413/422 it deserves, in the `meta` envelope, and leaves the database as it was.

import fc from 'fast-check';
import { expect } from 'vitest';
import type { Gateway } from '../../kit/gateway.ts';
import { tokens } from '../../kit/fixture.ts';
import { finishLessonPath } from '../../kit/rest.ts';
import { digest, encode, metaStatusFor, namedOffenders, SEED, type Encoding, type HostileBody } from './hostile.ts';

/** Runs `numRuns` generated cases against the owner's classroom activity; answers how many ran. */
export async function assertRejectedWithoutChange(
  gateway: Gateway,
  cases: fc.Arbitrary<HostileBody>,
  numRuns: number,
  seed = SEED,
): Promise<number> {
  const bodyLimit = gateway.config.bodyLimit;
  const before = await gateway.snapshot();
  const baseline = await digest(gateway);
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(cases, fc.constantFrom<Encoding>('json', 'json', 'form'), async (hostile, encoding) => {
      runs += 1;
      const { payload, contentType } = encode(hostile.body, encoding);
      const expected = Buffer.byteLength(payload) > bodyLimit ? 413 : hostile.status;
      const answer = await gateway.rest('PUT', finishLessonPath(), {
        token: tokens.owner,
        payload,
        headers: { 'content-type': contentType },
      });
      const unchanged = (await digest(gateway)) === baseline;
      if (!unchanged || answer.status === 200) await gateway.reset(); // keep the next cases meaningful; this one fails below

      expect(answer.status, answer.text.slice(0, 300)).not.toBe(500);
      expect([400, 413, 422]).toContain(answer.status);
      expect(answer.status, answer.text.slice(0, 300)).toBe(expected);
      expect(Object.keys(answer.body ?? {})).toEqual(['meta']);
      expect(Object.keys(answer.body.meta).sort()).toEqual(['errors', 'message', 'status']);
      expect(answer.body.meta.status).toBe(metaStatusFor[expected]);
      expect(typeof answer.body.meta.message).toBe('string');
      if (expected === 422) {
        const errors = answer.body.meta.errors as Record<string, unknown>;
        expect(errors).toBeTypeOf('object');
        for (const messages of Object.values(errors)) {
          expect(Array.isArray(messages) && messages.length > 0 && messages.every((message) => typeof message === 'string')).toBe(true);
        }
        // Every offender is named, and nothing else is.
        expect(namedOffenders(errors)).toEqual({ fields: [...(hostile.fields ?? [])].sort(), offenders: hostile.offenders ?? [] });
      } else {
        expect(answer.body.meta.errors).toBeNull();
      }
      expect(unchanged, 'the database changed').toBe(true);
    }),
    { seed, numRuns, endOnFailure: true, verbose: 1 },
  );
  expect(await gateway.snapshot()).toBe(before);
  return runs;
}
