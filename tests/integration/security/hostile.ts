// Generators of hostile finish_lesson inputs (fast-check) and the checks the security proofs share.
// Every generated body is invalid by construction: it carries at least one element that no correct
// server may accept, and it knows the answer it must get (400, 413 or 422 and, for 422, the fields).

import fc from 'fast-check';
import { tables, type Gateway } from '../../kit/gateway.ts';
import { uids } from '../../kit/fixture.ts';

/** Fixed unless FC_SEED is set, so a failure can be replayed; fast-check prints the seed and path on failure. */
export const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20_261_122;

/** Every row of every table in ONE statement, as text: the same content `gateway.snapshot()` compares, cheaper. */
export async function digest(gateway: Gateway): Promise<string> {
  const parts = tables.map(
    (table) => `'${table}: ' || coalesce((SELECT string_agg(to_jsonb(t)::text, ',' ORDER BY to_jsonb(t)::text) FROM "${table}" t), '')`,
  );
  const [row] = await gateway.database.prisma.$queryRawUnsafe<{ digest: string }[]>(`SELECT ${parts.join(` || E'\\n' || `)} AS digest`);
  return row!.digest;
}

export const visibleSessions = [uids.sessions.ben, uids.sessions.chloe, uids.sessions.dev] as const;
export const concepts = [uids.concepts.parallel, uids.concepts.compound] as const;
/** Real uids that are not a visible session of classroom activity 100: another teacher's session, a hidden one, concepts. */
export const foreignSessionUids = [uids.sessions.other, uids.sessions.hidden, uids.concepts.parallel, uids.lesson] as const;

const knownSessions = new Set<string>(visibleSessions);
const knownConcepts = new Set<string>(concepts);

/** Strings that must never reach SQL unchecked, or that stress it. */
const nastyStrings = fc.constantFrom(
  "' OR 1=1 --",
  "x'); DROP TABLE concept_results; --",
  '%',
  '_',
  '\\',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '💥'.repeat(50),
  'ﬀ\u200b\u202e',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
);

/** A possibly huge string: up to 100,000 characters (a body of several stays well inside the 5 MB limit). */
const hugeString = fc
  .tuple(fc.constantFrom('x', 'é', '\u0000', '🙂', ' '), fc.integer({ min: 1_000, max: 100_000 }))
  .map(([unit, n]) => unit.repeat(n));

export const anyString = fc.oneof(
  { arbitrary: fc.string({ maxLength: 30 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 3 },
  { arbitrary: nastyStrings, weight: 3 },
  { arbitrary: hugeString, weight: 1 },
);

/** A string that names no visible session of classroom activity 100 (random, hostile, or another teacher's). */
export const unknownSessionUid = fc.oneof(
  nastyStrings.filter((value) => value.trim() !== ''),
  anyString.filter((value) => value.trim() !== '' && !knownSessions.has(value) && !knownSessions.has(value.trim())),
  fc.constantFrom(...foreignSessionUids),
);
export const unknownConceptUid = fc.oneof(
  nastyStrings.filter((value) => value.trim() !== ''),
  anyString.filter((value) => value.trim() !== '' && !knownConcepts.has(value) && !knownConcepts.has(value.trim())),
  fc.constantFrom(uids.sessions.ben, uids.lesson, uids.followUp),
);

const blank = fc.constantFrom('', ' ', '   ', '\t', '\n', ' \r\n ');

/** JSON junk, nested, with prototype-pollution keys among the ordinary ones. */
export const junk: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    anyString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString')),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

/** An own property named `key` even for `__proto__` (a computed key defines, it does not set the prototype). */
const withOwn = (object: Record<string, unknown>, key: string, value: unknown) => ({ ...object, [key]: value });

/** Not a string, and not null (null means absent for optional fields). */
const notAString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.array(junk, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), junk, { maxKeys: 3 }),
  fc.constant(1.5),
);
const notAnInteger = fc.oneof(
  fc.constantFrom(1.5, -0.25, 2 ** 53, -(2 ** 60), 1e300, -1e300, '1', '0', 'one', true, false, null, [], {}, [1], { value: 1 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Number.isInteger(value)),
  anyString,
);
/** Not a boolean, and not "" either: the lessons client's "" means no follow-up (docs/contract.md, finish_lesson). */
const notABoolean = fc
  .oneof(fc.constantFrom('true', 'false', 1, 0, [], {}, [true], { value: true }), anyString, fc.integer())
  .filter((value) => value !== '');
const notAnObject = fc.oneof(fc.integer(), fc.boolean(), anyString, fc.array(junk, { maxLength: 3 }));
/** Not a JSON array and not null (null means absent). */
const notAnArray = fc.oneof(
  fc.integer(),
  fc.boolean(),
  anyString,
  fc.dictionary(fc.string({ maxLength: 5 }), junk, { maxKeys: 3 }),
  fc.constantFrom({ 0: 'a', length: 1 }),
);

export type Case = { key: string; value: unknown };

/** A valid legacy concept result (snake_case), with optional extra keys that are ignored or kept. */
export const validResult = fc
  .record({
    session: fc.constantFrom(...visibleSessions),
    concept: fc.constantFrom(...concepts),
    questionType: fc.oneof(
      fc.constantFrom('lessons-slide', 'q'),
      fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== '' && !s.includes('\u0000') && !/[\ud800-\udfff]/.test(s)),
    ),
    correct: fc.integer({ min: -5, max: 5 }),
    attemptNumber: fc.integer({ min: 0, max: 10 }),
    questionNumber: fc.integer({ min: 0, max: 100 }),
    prompt: fc.option(fc.constantFrom('Prompt', 'Combine the sentences.', ''), { nil: undefined }),
  })
  .map(({ session, concept, questionType, correct, attemptNumber, questionNumber, prompt }) => ({
    activity_session_uid: session,
    concept_uid: concept,
    question_type: questionType,
    metadata: { correct, attemptNumber, questionNumber, ...(prompt === undefined ? {} : { prompt }) },
  }));

type LegacyResult = { activity_session_uid: string; concept_uid: string; question_type: string; metadata: Record<string, unknown> };

const requiredKeys = ['activity_session_uid', 'concept_uid', 'question_type', 'metadata'] as const;
const metadataNumbers = ['correct', 'attemptNumber', 'questionNumber'] as const;
const metadataStrings = ['directions', 'prompt', 'answer'] as const;

/** A concept result no server may accept (legacy snake_case): the element itself is the offender. */
export const invalidResult: fc.Arbitrary<unknown> = fc.oneof(
  // Not an object at all (null included: a list of concept results has no absent elements).
  fc.oneof(notAnObject, fc.constant(null)),
  // Required fields missing, some of them smuggled in through prototype-pollution keys instead.
  fc
    .tuple(validResult, fc.subarray([...requiredKeys], { minLength: 1 }), fc.constantFrom('none', '__proto__', 'constructor', 'prototype'))
    .map(([result, missing, via]) => {
      const kept = Object.fromEntries(Object.entries(result).filter(([key]) => !missing.includes(key as (typeof requiredKeys)[number])));
      const smuggled = Object.fromEntries(missing.map((key) => [key, result[key]]));
      return via === 'none' ? kept : withOwn(kept, via, via === 'constructor' ? { prototype: smuggled } : smuggled);
    }),
  // A required field of the wrong type (null is wrong too: these fields are required).
  fc.tuple(validResult, fc.constantFrom(...requiredKeys), fc.oneof(notAString, fc.constant(null))).map(([result, key, value]) => ({
    ...result,
    [key]: key === 'metadata' && typeof value === 'object' && value !== null && !Array.isArray(value) ? 'not metadata' : value,
  })),
  // Blank strings where a non-empty one is required.
  fc
    .tuple(validResult, fc.constantFrom('activity_session_uid', 'concept_uid', 'question_type', 'edition_id'), blank)
    .map(([result, key, value]) => ({ ...result, [key]: value })),
  // A uid that names nothing here: random, hostile, huge, or another teacher's session.
  fc.tuple(validResult, unknownSessionUid).map(([result, uid]) => ({ ...result, activity_session_uid: uid })),
  fc.tuple(validResult, unknownConceptUid).map(([result, uid]) => ({ ...result, concept_uid: uid })),
  // Metadata that is not an object, lacks a number, has a non-integer, or a non-string text.
  fc.tuple(validResult, fc.oneof(notAnObject, fc.constant(null))).map(([result, metadata]) => ({ ...result, metadata })),
  fc.tuple(validResult, fc.subarray([...metadataNumbers], { minLength: 1 })).map(([result, missing]) => ({
    ...result,
    metadata: Object.fromEntries(
      Object.entries(result.metadata).filter(([key]) => !missing.includes(key as (typeof metadataNumbers)[number])),
    ),
  })),
  fc
    .tuple(validResult, fc.constantFrom(...metadataNumbers), notAnInteger)
    .map(([result, key, value]) => ({ ...result, metadata: { ...result.metadata, [key]: value } })),
  fc
    .tuple(validResult, fc.constantFrom(...metadataStrings), notAString)
    .map(([result, key, value]) => ({ ...result, metadata: { ...result.metadata, [key]: value } })),
  // An edition id on the result that is not a string.
  fc.tuple(validResult, notAString).map(([result, value]) => ({ ...result, edition_id: value })),
);

/** Decorations that never make a body invalid: unknown keys (pollution keys too) and nested junk. */
const ignoredKeys = fc.dictionary(
  fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra', 'id', 'classroom_activity_id', 'user_id', 'teacher_id'),
    fc.string({ maxLength: 10 }),
  ),
  junk,
  { maxKeys: 3 },
);
const knownBodyKeys = new Set(['follow_up', 'edition_id', 'concept_results']);

export type HostileBody = {
  body: unknown;
  /** The status a correct server answers. */
  status: 400 | 413 | 422;
  /** For 422: the top-level keys and concept result indexes that must be named (and nothing else). */
  fields?: string[];
  offenders?: number[];
};

/** A list of concept results with at least one offender, valid ones and duplicates around it. */
const resultsWithOffenders = fc
  .tuple(fc.array(validResult, { maxLength: 4 }), fc.array(invalidResult, { minLength: 1, maxLength: 4 }), fc.boolean())
  .chain(([valid, invalid, duplicate]) => {
    const items = [...valid.map((value) => ({ value, bad: false })), ...invalid.map((value) => ({ value, bad: true }))];
    if (duplicate && items.length > 0) items.push({ ...items[0]! });
    return fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });
  })
  .map((items) => ({ results: items.map((item) => item.value), offenders: items.flatMap((item, index) => (item.bad ? [index] : [])) }));

/** A JSON object body that is wrong in at least one place: 422 naming exactly those places. */
export const invalidObjectBody: fc.Arbitrary<HostileBody> = fc
  .record({
    followUp: fc.oneof(
      fc.constant({ bad: false, value: undefined }),
      fc.constantFrom(true, false, null).map((value) => ({ bad: false, value })),
      notABoolean.map((value) => ({ bad: true, value })),
    ),
    editionId: fc.oneof(
      fc.constant({ bad: false, value: undefined }),
      fc.constantFrom('edition-1', null).map((value) => ({ bad: false, value: value })),
      fc.oneof(notAString, blank).map((value) => ({ bad: true, value })),
    ),
    results: fc.oneof(
      fc.constant({ kind: 'absent' as const }),
      fc.array(validResult, { maxLength: 3 }).map((list) => ({ kind: 'valid' as const, list })),
      notAnArray.map((value) => ({ kind: 'notArray' as const, value })),
      resultsWithOffenders.map((value) => ({ kind: 'offenders' as const, ...value })),
    ),
    extra: ignoredKeys,
  })
  .filter(
    ({ followUp, editionId, results }) => followUp.bad || editionId.bad || results.kind === 'notArray' || results.kind === 'offenders',
  )
  .map(({ followUp, editionId, results, extra }) => {
    const body: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(extra))
      if (!knownBodyKeys.has(key)) Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
    if (followUp.value !== undefined) body.follow_up = followUp.value;
    if (editionId.value !== undefined) body.edition_id = editionId.value;
    if (results.kind === 'valid') body.concept_results = results.list;
    if (results.kind === 'notArray') body.concept_results = results.value;
    if (results.kind === 'offenders') body.concept_results = results.results;
    const fields = [
      ...(followUp.bad ? ['follow_up'] : []),
      ...(editionId.bad ? ['edition_id'] : []),
      ...(results.kind === 'notArray' ? ['concept_results'] : []),
    ];
    return { body, status: 422 as const, fields, offenders: results.kind === 'offenders' ? results.offenders : [] };
  });

/** Not a JSON object: 400. */
export const notAnObjectBody: fc.Arbitrary<HostileBody> = fc
  .oneof(
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    anyString,
    fc.array(junk, { maxLength: 4 }),
    fc.array(validResult, { minLength: 1, maxLength: 2 }),
  )
  .map((body) => ({ body, status: 400 as const }));

/** More than 10,000 concept results (the elements need not even be valid): 413. */
export const tooManyBody: fc.Arbitrary<HostileBody> = fc
  .tuple(fc.integer({ min: 10_001, max: 10_050 }), fc.constantFrom<unknown>(0, null, 'x', {}))
  .map(([length, element]) => ({ body: { concept_results: Array.from({ length }, () => element) }, status: 413 as const }));

/** How the body travels: plain JSON, or the lessons client's form with a `json` field. */
export type Encoding = 'json' | 'form';

/** A 422 body's error keys, as top-level names and concept result indexes. */
export function namedOffenders(errors: Record<string, unknown>): { fields: string[]; offenders: number[] } {
  const fields = new Set<string>();
  const offenders = new Set<number>();
  for (const key of Object.keys(errors)) {
    const match = /^concept_results\[(\d+)\]/.exec(key);
    if (match) offenders.add(Number(match[1]));
    else fields.add(key);
  }
  return { fields: [...fields].sort(), offenders: [...offenders].sort((a, b) => a - b) };
}

export type { LegacyResult };

/** The JSON text or the url-encoded form the body travels as, with its content type. */
export function encode(body: unknown, encoding: Encoding): { payload: string; contentType: string } {
  const json = JSON.stringify(body);
  return encoding === 'json'
    ? { payload: json, contentType: 'application/json' }
    : { payload: new URLSearchParams({ json }).toString(), contentType: 'application/x-www-form-urlencoded' };
}

export const metaStatusFor = { 400: 'bad_request', 413: 'payload_too_large', 422: 'invalid' } as const;
