// Strings JSON can carry but PostgreSQL cannot store (a NUL character anywhere; an unpaired surrogate in
// jsonb), and other extreme but well-formed values, in an otherwise valid finish_lesson body. Found by the
// fuzz: these were 500s. A string that cannot be stored is a wrong field (422 naming it, nothing
// changes); a huge or oddly keyed value that can be stored is stored as given, polluting nothing.

import { describe, expect, it } from 'vitest';
import { gatewayForTests } from '../../kit/gateway.ts';
import { conceptResultInput, legacyResult, tokens, uids } from '../../kit/fixture.ts';
import { finishLesson } from '../../kit/finish-lesson.ts';
import { finishLessonPath } from '../../kit/rest.ts';

const gateway = gatewayForTests();

const finish = (body: unknown) => gateway.rest('PUT', finishLessonPath(), { token: tokens.owner, body });
const ben = () => legacyResult(uids.sessions.ben);

describe('a string PostgreSQL cannot store: 422 naming it, nothing changes', () => {
  const cases: [string, () => unknown, string][] = [
    [
      'a NUL in question_type',
      () => ({ concept_results: [{ ...ben(), question_type: 'slide\u0000' }] }),
      'concept_results[0].question_type',
    ],
    [
      'a NUL in an unknown concept uid',
      () => ({ concept_results: [legacyResult(uids.sessions.ben, 'x\u0000y')] }),
      'concept_results[0].concept_uid',
    ],
    [
      'a NUL in the session uid',
      () => ({ concept_results: [legacyResult('session-ben\u00000000000001')] }),
      'concept_results[0].activity_session_uid',
    ],
    ['a NUL in edition_id', () => ({ edition_id: 'e\u0000' }), 'edition_id'],
    ['a NUL in a result’s edition_id', () => ({ concept_results: [{ ...ben(), edition_id: '\u0000' }] }), 'concept_results[0].edition_id'],
    [
      'a NUL in metadata.prompt',
      () => ({ concept_results: [legacyResult(uids.sessions.ben, uids.concepts.parallel, 1, { prompt: 'a\u0000b' })] }),
      'concept_results[0].metadata.prompt',
    ],
    [
      'a NUL in an extra metadata value',
      () => ({ concept_results: [legacyResult(uids.sessions.ben, uids.concepts.parallel, 1, { extra: { deep: ['\u0000'] } })] }),
      'concept_results[0].metadata.extra.deep[0]',
    ],
    [
      'a NUL in an extra metadata key',
      () => ({ concept_results: [legacyResult(uids.sessions.ben, uids.concepts.parallel, 1, { 'k\u0000': 1 })] }),
      'concept_results[0].metadata.k\u0000',
    ],
    [
      'an unpaired surrogate in an extra metadata value',
      () => ({ concept_results: [legacyResult(uids.sessions.ben, uids.concepts.parallel, 1, { extra: '\ud800' })] }),
      'concept_results[0].metadata.extra',
    ],
  ];
  it.each(cases)('%s', async (_what, body, path) => {
    const before = await gateway.snapshot();
    const answer = await finish(body());
    expect(answer.status, answer.text).toBe(422);
    expect(Object.keys(answer.body.meta.errors)).toEqual([path]);
    expect(await gateway.snapshot()).toBe(before);
  });

  it('GraphQL: BAD_USER_INPUT naming the field, nothing changes', async () => {
    const before = await gateway.snapshot();
    const answer = await finishLesson(gateway, {
      editionId: 'e\u0000',
      conceptResults: [
        {
          ...conceptResultInput(uids.sessions.ben, 'c\u0000'),
          metadata: { correct: 1, attemptNumber: 1, questionNumber: 1, prompt: '\u0000', extra: { k: '\udc00' } },
        },
      ],
    });
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(Object.keys(answer.errors![0]!.extensions!.fields).sort()).toEqual(
      ['editionId', 'conceptResults[0].conceptUid', 'conceptResults[0].metadata.prompt', 'conceptResults[0].metadata.extra.k'].sort(),
    );
    expect(await gateway.snapshot()).toBe(before);
  });
});

describe('extreme values that can be stored are stored as given', () => {
  it('a 1 MB metadata value, pollution keys in metadata, paired surrogates and odd unicode', async () => {
    const big = 'y'.repeat(1_000_000);
    const payload = `{"concept_results":[{"activity_session_uid":"${uids.sessions.ben}","concept_uid":"${uids.concepts.parallel}","question_type":"🙂 ﬀ\\u200b","metadata":{"correct":1,"attemptNumber":1,"questionNumber":1,"big":"${big}","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}}]}`;
    const answer = await gateway.rest('PUT', finishLessonPath(), {
      token: tokens.owner,
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    const [result] = await gateway.database.prisma.conceptResult.findMany();
    expect(result!.questionType).toBe('🙂 ﬀ\u200b');
    const metadata = result!.metadata as Record<string, unknown>;
    expect((metadata.big as string).length).toBe(1_000_000);
    expect(Object.getOwnPropertyNames(metadata)).toEqual(expect.arrayContaining(['correct', 'big']));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
