import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { formatPath, jsonObject, nonEmptyString, optional, parseInput, parseNumericId, zodFieldErrors } from '../../src/core/validation.ts';

// The input rules every face shares (src/core/validation.ts).

describe('parseNumericId', () => {
  it('reads a positive int4 id from a number or its digits, else null', () => {
    expect(parseNumericId('42')).toBe(42);
    expect(parseNumericId(7)).toBe(7);
    expect(parseNumericId('2147483647')).toBe(2_147_483_647);
    for (const bad of ['0', '-1', '1.5', '2147483648', 'abc', '', ' 1', '1e3', 1.5, 0]) expect(parseNumericId(bad)).toBeNull();
  });
});

describe('field errors', () => {
  it('writes paths as the clients read them, and quotes what was given', () => {
    expect(formatPath(['conceptResults', 3, 'metadata', 'correct'])).toBe('conceptResults[3].metadata.correct');
    expect(formatPath([])).toBe('');
    const schema = z.object({ name: nonEmptyString, data: optional(jsonObject), count: z.number() });
    const parsed = schema.safeParse({ name: ' ', data: { key: 'a\u0000' } }, { reportInput: true });
    expect(parsed.success).toBe(false);
    const fields = zodFieldErrors(parsed.error!);
    expect(fields.name).toEqual(['must not be blank; got " "']);
    expect(fields.count).toEqual(['is required']);
    expect(fields['data.key']![0]).toMatch(/must not contain a NUL character/);
  });

  it('takes an explicit null for an optional field as absent, and throws BAD_USER_INPUT naming every field', () => {
    const schema = z.object({ a: optional(z.string()), b: z.string() });
    expect(parseInput(schema, { a: null, b: 'x' })).toEqual({ b: 'x' });
    expect(() => parseInput(schema, { a: 1 })).toThrow(
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }),
    );
  });
});
