import type { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { conceptResultFingerprint } from '../../src/modules/classroom-activities/concept-results.ts';
import { MAX_CONCEPT_RESULTS, parseFinishLessonInput, uidReferences } from '../../src/modules/classroom-activities/finish-lesson.input.ts';

// finish_lesson's input, checked before anything is written (docs/contract.md, finish_lesson), and the
// fingerprint that keeps a concept result once however often it is sent.

const result = (overrides: Record<string, unknown> = {}) => ({
  activitySessionUid: 'session-1',
  conceptUid: 'concept-1',
  questionType: 'lessons-slide',
  metadata: { correct: 1, attemptNumber: 1, questionNumber: 1 },
  ...overrides,
});
const failure = (input: unknown) => {
  try {
    parseFinishLessonInput(input);
  } catch (error) {
    return (error as GraphQLError).extensions;
  }
  throw new Error('expected the input to be refused');
};

describe('parseFinishLessonInput', () => {
  it('defaults followUp to false, the results to none, and the edition id to the first one a result gives', () => {
    expect(parseFinishLessonInput({})).toEqual({ followUp: false, editionId: null, conceptResults: [] });
    const command = parseFinishLessonInput({
      followUp: null,
      conceptResults: [result(), result({ editionId: 'from-result' }), result({ editionId: 'later' })],
    });
    expect(command.followUp).toBe(false);
    expect(command.editionId).toBe('from-result');
    expect(command.conceptResults[1]).not.toHaveProperty('editionId');
    expect(parseFinishLessonInput({ editionId: 'top', conceptResults: [result({ editionId: 'x' })] }).editionId).toBe('top');
  });

  it('keeps metadata as stored: the known keys given, and the extra keys beside them', () => {
    const [saved] = parseFinishLessonInput({
      conceptResults: [result({ metadata: { correct: 0, attemptNumber: 2, questionNumber: 3, prompt: 'p', extra: { note: 'n' } } })],
    }).conceptResults;
    expect(saved!.metadata).toEqual({ correct: 0, attemptNumber: 2, questionNumber: 3, prompt: 'p', note: 'n' });
  });

  it('keeps a __proto__ key of extra as given, as an own key (docs/contract.md, finish_lesson), and pollutes nothing', () => {
    const extra = JSON.parse('{"__proto__": {"polluted": true}, "note": "n"}') as Record<string, unknown>;
    const [saved] = parseFinishLessonInput({
      conceptResults: [result({ metadata: { correct: 0, attemptNumber: 2, questionNumber: 3, extra } })],
    }).conceptResults;
    expect(Object.keys(saved!.metadata)).toEqual(['__proto__', 'note', 'correct', 'attemptNumber', 'questionNumber']);
    expect(JSON.parse(JSON.stringify(saved!.metadata))).toEqual(
      JSON.parse(JSON.stringify({ ...extra, correct: 0, attemptNumber: 2, questionNumber: 3 })),
    );
    expect(Object.getPrototypeOf(saved!.metadata)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names every malformed field at once, with the value it got', () => {
    const extensions = failure({
      followUp: 'yes',
      conceptResults: [result({ activitySessionUid: '  ' }), result({ metadata: { correct: 1.5, attemptNumber: 1 } })],
    });
    expect(extensions.code).toBe('BAD_USER_INPUT');
    expect(Object.keys(extensions.fields as object).sort()).toEqual([
      'conceptResults[0].activitySessionUid',
      'conceptResults[1].metadata.correct',
      'conceptResults[1].metadata.questionNumber',
      'followUp',
    ]);
    expect((extensions.fields as Record<string, string[]>).followUp![0]).toMatch(/got "yes"/);
  });

  it(`refuses more than ${MAX_CONCEPT_RESULTS} concept results as too large, before checking any`, () => {
    expect(failure({ conceptResults: Array.from({ length: MAX_CONCEPT_RESULTS + 1 }, () => 'not even an object') }).code).toBe(
      'PAYLOAD_TOO_LARGE',
    );
  });
});

describe('uidReferences', () => {
  it('reads the uids leniently from an input that failed, so the 422 can name the unknown ones too', () => {
    expect(uidReferences({ conceptResults: [result(), { conceptUid: 'c' }, null, 'x'] })).toEqual([
      { activitySessionUid: 'session-1', conceptUid: 'concept-1' },
      { activitySessionUid: undefined, conceptUid: 'c' },
      { activitySessionUid: undefined, conceptUid: undefined },
      { activitySessionUid: undefined, conceptUid: undefined },
    ]);
    expect(uidReferences(null)).toEqual([]);
    expect(uidReferences({ conceptResults: Array.from({ length: MAX_CONCEPT_RESULTS + 1 }, result) })).toEqual([]);
  });
});

describe('conceptResultFingerprint', () => {
  it('is the same for the same answer whatever the order of its keys, and differs for another answer', () => {
    const a = conceptResultFingerprint(1, 'q', { correct: 1, nested: { x: [1, { b: 2, a: 1 }] } });
    const b = conceptResultFingerprint(1, 'q', { nested: { x: [1, { a: 1, b: 2 }] }, correct: 1 });
    expect(a).toBe(b);
    expect(conceptResultFingerprint(2, 'q', { correct: 1, nested: { x: [1, { a: 1, b: 2 }] } })).not.toBe(a);
    expect(conceptResultFingerprint(1, 'q', { correct: 0, nested: { x: [1, { a: 1, b: 2 }] } })).not.toBe(a);
  });

  it('writes 100,000 levels without exhausting the stack', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i += 1) deep = { d: deep };
    expect(conceptResultFingerprint(1, 'q', deep)).toMatch(/^[\w-]{43}$/);
  });
});
