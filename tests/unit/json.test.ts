import { Kind, parseValue } from 'graphql';
import { describe, expect, it } from 'vitest';
import { isStorableText, jsonProblems, JSONObjectScalar, MAX_JSON_DEPTH, TOO_DEEP, UNSTORABLE } from '../../src/core/json.ts';

// The rules every JSON value a client sends meets (src/core/json.ts): depth, and text PostgreSQL can store,
// walked without recursion so that no value, however deep, can exhaust the stack.

/** An object nested `depth` levels: {a: {a: ... {}}}. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i += 1) value = { a: value };
  return value;
}

describe('isStorableText', () => {
  it('refuses a NUL character and an unpaired surrogate, keeps paired ones', () => {
    expect(isStorableText('plain')).toBe(true);
    expect(isStorableText('emoji \ud83d\ude00')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('lone \ud83d')).toBe(false);
    expect(isStorableText('\ude00 trailing')).toBe(false);
  });
});

describe('jsonProblems', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more, as one problem on the value itself`, () => {
    expect(jsonProblems(nested(MAX_JSON_DEPTH))).toEqual([]);
    expect(jsonProblems(nested(MAX_JSON_DEPTH + 1))).toEqual([{ path: [], message: TOO_DEEP }]);
  });

  it('walks 100,000 levels without exhausting the stack', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(jsonProblems(deep)).toEqual([{ path: [], message: TOO_DEEP }]);
  });

  it('names every key and string PostgreSQL cannot store by its path, and quotes it', () => {
    const problems = jsonProblems({ ok: 'x', list: ['fine', 'bad\u0000'], ['key\u0000']: 1, deep: { s: '\ud800' } });
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: ['list', 1], message: UNSTORABLE, input: 'bad\u0000' },
        { path: ['key\u0000'], message: `key ${UNSTORABLE}`, input: 'key\u0000' },
        { path: ['deep', 's'], message: UNSTORABLE, input: '\ud800' },
      ]),
    );
    expect(problems).toHaveLength(3);
  });

  it('names at most 20 problems, however many the value holds', () => {
    expect(jsonProblems(Array.from({ length: 1_000 }, () => '\u0000'))).toHaveLength(20);
  });

  it('checks only the depth when asked to', () => {
    expect(jsonProblems({ s: '\u0000' }, { depthOnly: true })).toEqual([]);
  });
});

describe('JSONObject', () => {
  it('takes an object as a variable, refuses a list or a scalar, and one nested too deep as BAD_USER_INPUT', () => {
    expect(JSONObjectScalar.parseValue({ a: [1, { b: 'c' }] })).toEqual({ a: [1, { b: 'c' }] });
    expect(() => JSONObjectScalar.parseValue([1])).toThrow(/non-object value: a list/);
    expect(() => JSONObjectScalar.parseValue('x')).toThrow(/non-object value: string/);
    expect(() => JSONObjectScalar.parseValue(nested(MAX_JSON_DEPTH + 1))).toThrow(
      expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT' } }),
    );
  });

  it('reads a literal with variables inside it, and counts their depth where they sit', () => {
    const literal = parseValue('{a: [1, $inner], b: null, c: ENUM, d: 1.5}');
    expect(literal.kind).toBe(Kind.OBJECT);
    expect(JSONObjectScalar.parseLiteral(literal, { inner: { x: true } })).toEqual({ a: [1, { x: true }], b: null, c: 'ENUM', d: 1.5 });
    // Two levels of literal around the variable: it may nest two levels fewer.
    expect(() => JSONObjectScalar.parseLiteral(literal, { inner: nested(MAX_JSON_DEPTH - 1) })).toThrow(/must not nest deeper/);
    expect(JSONObjectScalar.parseLiteral(literal, { inner: nested(MAX_JSON_DEPTH - 2) })).toBeTruthy();
  });

  it('refuses a literal nested too deep, and a `__proto__` key is an ordinary key', () => {
    const deep = `${'{a: '.repeat(1_000)}1${'}'.repeat(1_000)}`;
    expect(() => JSONObjectScalar.parseLiteral(parseValue(deep), {})).toThrow(/must not nest deeper/);
    const value = JSONObjectScalar.parseLiteral(parseValue('{__proto__: {polluted: true}}'), {}) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
