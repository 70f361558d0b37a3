// PUT /api/v1/classroom_activities/:id/finish_lesson as the lessons client calls it (docs/contract.md,
// REST routes): the snake_case body translated into finish_lesson (whose rules are tested through GraphQL
// in tests/integration/classroom-activities/finish-lesson.test.ts), and the outcome translated back: the answer
// {follow_up_url}, unknown keys and nulls, the 422 envelope naming each offender by its snake_case path,
// 413, and no statement beyond GraphQL's. Who may call it and in which order the checks run:
// errors-and-auth.test.ts; the forms and other body encodings: finish-lesson-bodies.test.ts.

import { describe, expect, it } from 'vitest';
import { gatewayForTests, type RestAnswer } from '../../kit/gateway.ts';
import { ids, legacyResult, tokens, uids } from '../../kit/fixture.ts';
import { readClassroomActivity } from '../../kit/graphql.ts';
import { DEFAULT_APP_URL, followUpClassroomActivities, followUpUrlFor } from '../../kit/finish-lesson.ts';
import { finishLessonPath, urlEncodedForm } from '../../kit/rest.ts';

const gateway = gatewayForTests();

/** The owner's PUT finish_lesson with a JSON body. */
const finish = (body: unknown): Promise<RestAnswer> => gateway.rest('PUT', finishLessonPath(), { token: tokens.owner, body });
const twoResults = () => [legacyResult(uids.sessions.ben), legacyResult(uids.sessions.chloe, uids.concepts.compound, 2)];
const prisma = () => gateway.database.prisma;
const bensResults = () => prisma().conceptResult.findMany({ where: { activitySessionId: ids.sessions.ben } });

/** 422 naming exactly `paths` (every offender, nothing else), and nothing written. */
async function expectInvalid(body: unknown, paths: string[]): Promise<Record<string, string[]>> {
  const before = await gateway.snapshot();
  const answer = await finish(body);
  expect(answer.status, answer.text).toBe(422);
  expect(answer.body.meta.status).toBe('invalid');
  expect(typeof answer.body.meta.message).toBe('string');
  const errors = answer.body.meta.errors as Record<string, string[]>;
  expect(Object.keys(errors).sort()).toEqual([...paths].sort());
  for (const path of paths) {
    expect(Array.isArray(errors[path])).toBe(true);
    expect(errors[path]!.length).toBeGreaterThan(0);
    for (const message of errors[path]!) expect(typeof message).toBe('string');
  }
  expect(await gateway.snapshot()).toBe(before);
  return errors;
}

describe('a snake_case body', () => {
  it('finishes the lesson with its edition_id and concept_results, and answers {follow_up_url: APP_URL}', async () => {
    const results = twoResults();
    const answer = await finish({ edition_id: 'edition-7', concept_results: results });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });

    const lesson = (await readClassroomActivity(gateway))!;
    expect(lesson).toMatchObject({ locked: true, pinned: false, completed: true, editionId: 'edition-7' });
    expect(lesson.sessions.map((session) => [session.uid, session.conceptResults])).toEqual([
      [uids.sessions.ben, [{ concept: { uid: uids.concepts.parallel }, questionType: 'lessons-slide', metadata: results[0]!.metadata }]],
      [uids.sessions.chloe, [{ concept: { uid: uids.concepts.compound }, questionType: 'lessons-slide', metadata: results[1]!.metadata }]],
    ]);
  });

  it('with follow_up: true, answers the follow-up classroom activity’s URL', async () => {
    const answer = await finish({ follow_up: true, concept_results: twoResults() });
    expect(answer.status, answer.text).toBe(200);
    const [followUp] = await followUpClassroomActivities(gateway);
    expect(answer.body).toEqual({ follow_up_url: followUpUrlFor(followUp!.id) });
  });

  it('follow_up "", null or absent means no follow-up, as the lessons client sends it (docs/contract.md, finish_lesson), JSON or form', async () => {
    const bodies: [string, { body?: unknown; payload?: string; headers?: Record<string, string> }][] = [
      ['""', { body: { follow_up: '', concept_results: twoResults() } }],
      ['null', { body: { follow_up: null, concept_results: twoResults() } }],
      ['absent', { body: { concept_results: twoResults() } }],
      ['"" in a form', urlEncodedForm({ json: JSON.stringify({ follow_up: '', concept_results: twoResults() }) })],
    ];
    for (const [name, request] of bodies) {
      await gateway.reset();
      const answer = await gateway.rest('PUT', finishLessonPath(), { token: tokens.owner, ...request });
      expect(answer.status, `${name}: ${answer.text}`).toBe(200);
      expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
      expect(await followUpClassroomActivities(gateway)).toEqual([]);
      expect((await readClassroomActivity(gateway))!).toMatchObject({ completed: true });
    }
    // Any other string is still not a boolean.
    expect((await finish({ follow_up: 'yes' })).status).toBe(422);
  });

  it('reads edition_id on a concept result when the body has none', async () => {
    const answer = await finish({
      concept_results: [legacyResult(uids.sessions.ben), { ...legacyResult(uids.sessions.chloe), edition_id: 'edition-on-result' }],
    });
    expect(answer.status, answer.text).toBe(200);
    expect((await readClassroomActivity(gateway))!.editionId).toBe('edition-on-result');
  });

  it('keeps other metadata keys as given, and leaves out the optional ones that were not sent', async () => {
    const metadata = {
      correct: 0,
      attemptNumber: 2,
      questionNumber: 3,
      answer: 'They ran, jumped and swam.',
      timeTaken: 12.5,
      tags: ['warm-up', 'review'],
      nested: { slide: { type: 'CL-MD' }, flag: true },
      nothing: null,
      prompt: '<p>Combine <strong>these</strong></p>',
    };
    const answer = await finish({
      concept_results: [
        { activity_session_uid: uids.sessions.ben, concept_uid: uids.concepts.parallel, question_type: 'lessons-slide', metadata },
      ],
    });
    expect(answer.status, answer.text).toBe(200);
    const [row] = await bensResults();
    expect(row!.metadata).toEqual(metadata);
    expect(Object.keys(row!.metadata as object)).not.toContain('directions');
  });

  it('keeps a __proto__ metadata key as given, like any other (docs/contract.md, finish_lesson)', async () => {
    const metadata = JSON.parse(
      '{"correct": 1, "attemptNumber": 1, "questionNumber": 1, "__proto__": {"polluted": true}, "constructor": "c", "note": "n"}',
    ) as Record<string, unknown>;
    const answer = await finish({
      concept_results: [
        { activity_session_uid: uids.sessions.ben, concept_uid: uids.concepts.parallel, question_type: 'lessons-slide', metadata },
      ],
    });
    expect(answer.status, answer.text).toBe(200);
    const rows = await prisma().$queryRaw<{ keys: string[]; proto: unknown }[]>`
      SELECT array(SELECT jsonb_object_keys(metadata) ORDER BY 1) AS keys, metadata->'__proto__' AS proto FROM concept_results`;
    expect(rows).toEqual([
      { keys: ['__proto__', 'attemptNumber', 'constructor', 'correct', 'note', 'questionNumber'], proto: { polluted: true } },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('ignores unknown keys of the body and of a concept result (they are stored nowhere)', async () => {
    const answer = await finish({
      surprise: { deep: true },
      concept_results: [{ ...legacyResult(uids.sessions.ben), unknown_key: 'ignored', score: 99 }],
    });
    expect(answer.status, answer.text).toBe(200);
    const [row] = await bensResults();
    expect(row!.metadata).toEqual(legacyResult(uids.sessions.ben).metadata);
    expect(JSON.stringify(await gateway.snapshot())).not.toContain('unknown_key');
  });

  it('treats an explicit null for an optional field as absent', async () => {
    const result = legacyResult(uids.sessions.ben);
    const answer = await finish({
      follow_up: null,
      edition_id: null,
      concept_results: [{ ...result, edition_id: null, metadata: { ...result.metadata, directions: null, prompt: null, answer: null } }],
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
    const [row] = await bensResults();
    expect(row!.metadata).toEqual({ correct: 1, attemptNumber: 1, questionNumber: 1 });
    expect((await readClassroomActivity(gateway))!.editionId).toBeNull();
    expect(await prisma().userMilestone.count()).toBe(0);
    expect(await followUpClassroomActivities(gateway)).toEqual([]);
  });

  it('treats concept_results: null as an empty list', async () => {
    const answer = await finish({ concept_results: null });
    expect(answer.status, answer.text).toBe(200);
    expect(await prisma().conceptResult.count()).toBe(0);
  });

  it('stores a retried result once even when its metadata keys come in another order', async () => {
    const result = legacyResult(uids.sessions.ben);
    expect((await finish({ concept_results: [result] })).status).toBe(200);
    const reordered = { ...result, metadata: Object.fromEntries(Object.entries(result.metadata).reverse()) };
    expect((await finish({ concept_results: [reordered] })).status).toBe(200);
    expect(await prisma().conceptResult.count()).toBe(1);
  });
});

describe('validation: 422 naming every offender by its snake_case path, and nothing changes', () => {
  it('wrong types at the top level', async () => {
    const errors = await expectInvalid({ follow_up: 'yes', edition_id: 7, concept_results: { not: 'a list' } }, [
      'follow_up',
      'edition_id',
      'concept_results',
    ]);
    expect(errors.follow_up!.join(' ')).toContain('"yes"');
    expect(errors.edition_id!.join(' ')).toContain('7');
  });

  it('wrong types inside concept results, named by index and path', async () => {
    const good = legacyResult(uids.sessions.ben);
    const errors = await expectInvalid(
      {
        concept_results: [
          good,
          { ...good, activity_session_uid: 12345 },
          { ...good, metadata: { ...good.metadata, correct: 'yes', attemptNumber: 1.5 } },
          { ...good, metadata: { ...good.metadata, directions: 7, questionNumber: '3' } },
          { ...good, metadata: 'not an object' },
          'not an object',
          { ...good, question_type: ['lessons-slide'], edition_id: 5 },
        ],
      },
      [
        'concept_results[1].activity_session_uid',
        'concept_results[2].metadata.correct',
        'concept_results[2].metadata.attemptNumber',
        'concept_results[3].metadata.directions',
        'concept_results[3].metadata.questionNumber',
        'concept_results[4].metadata',
        'concept_results[5]',
        'concept_results[6].question_type',
        'concept_results[6].edition_id',
      ],
    );
    expect(errors['concept_results[1].activity_session_uid']!.join(' ')).toContain('12345');
    expect(errors['concept_results[2].metadata.correct']!.join(' ')).toContain('"yes"');
    expect(errors['concept_results[2].metadata.attemptNumber']!.join(' ')).toContain('1.5');
    expect(errors['concept_results[3].metadata.questionNumber']!.join(' ')).toContain('"3"');
    expect(errors['concept_results[4].metadata']!.join(' ')).toContain('"not an object"');
  });

  it('missing required fields', async () => {
    const good = legacyResult(uids.sessions.ben);
    const { activity_session_uid: _a, ...noSession } = good;
    const { concept_uid: _c, question_type: _q, ...noConceptNorType } = good;
    const { metadata: _m, ...noMetadata } = good;
    const { correct: _x, attemptNumber: _y, questionNumber: _z, ...metadataWithoutNumbers } = good.metadata;
    await expectInvalid({ concept_results: [noSession, noConceptNorType, noMetadata, { ...good, metadata: metadataWithoutNumbers }] }, [
      'concept_results[0].activity_session_uid',
      'concept_results[1].concept_uid',
      'concept_results[1].question_type',
      'concept_results[2].metadata',
      'concept_results[3].metadata.correct',
      'concept_results[3].metadata.attemptNumber',
      'concept_results[3].metadata.questionNumber',
    ]);
  });

  it('empty strings', async () => {
    const good = legacyResult(uids.sessions.ben);
    const errors = await expectInvalid(
      {
        edition_id: '',
        concept_results: [
          { ...good, activity_session_uid: '' },
          { ...good, concept_uid: '', question_type: '' },
          { ...good, edition_id: '' },
        ],
      },
      [
        'edition_id',
        'concept_results[0].activity_session_uid',
        'concept_results[1].concept_uid',
        'concept_results[1].question_type',
        'concept_results[2].edition_id',
      ],
    );
    expect(errors['concept_results[0].activity_session_uid']!.join(' ')).toContain('""');
  });

  it('uids that name nothing here: a session of another classroom activity, a hidden or unknown session, unknown concepts, two in one result; each quoted', async () => {
    const errors = await expectInvalid(
      {
        follow_up: true,
        edition_id: 'edition-x',
        concept_results: [
          legacyResult(uids.sessions.ben),
          legacyResult(uids.sessions.other, uids.concepts.compound),
          legacyResult(uids.sessions.chloe),
          legacyResult(uids.sessions.hidden),
          legacyResult('no-such-session-uid', 'no-such-concept-uid'),
          legacyResult(uids.sessions.chloe, 'still-nothing', 2),
        ],
      },
      [
        'concept_results[1].activity_session_uid',
        'concept_results[3].activity_session_uid',
        'concept_results[4].activity_session_uid',
        'concept_results[4].concept_uid',
        'concept_results[5].concept_uid',
      ],
    );
    const quoted: [string, string][] = [
      ['concept_results[1].activity_session_uid', uids.sessions.other],
      ['concept_results[3].activity_session_uid', uids.sessions.hidden],
      ['concept_results[4].activity_session_uid', 'no-such-session-uid'],
      ['concept_results[4].concept_uid', 'no-such-concept-uid'],
      ['concept_results[5].concept_uid', 'still-nothing'],
    ];
    for (const [path, value] of quoted) expect(errors[path]!.join(' '), path).toContain(`"${value}"`);
    // Nothing changed: no milestone, no follow-up (expectInvalid compared snapshots too).
    expect(await prisma().userMilestone.count()).toBe(0);
  });

  it('a wrong type and an unknown uid in the same body, together', async () => {
    const good = legacyResult(uids.sessions.ben);
    await expectInvalid(
      {
        concept_results: [
          { ...good, metadata: { ...good.metadata, correct: 'yes' } },
          legacyResult(uids.sessions.chloe, 'no-such-concept-uid'),
          legacyResult(uids.sessions.other),
        ],
      },
      ['concept_results[0].metadata.correct', 'concept_results[1].concept_uid', 'concept_results[2].activity_session_uid'],
    );
  });
  it('uids with a space before or after are named with the wrong types at once, not after them (docs/contract.md, finish_lesson)', async () => {
    const good = legacyResult(uids.sessions.ben);
    const errors = await expectInvalid(
      {
        concept_results: [
          { ...good, activity_session_uid: ` ${uids.sessions.ben}` },
          { ...legacyResult(uids.sessions.chloe), concept_uid: `${uids.concepts.parallel} ` },
          { ...good, question_type: 5 },
        ],
      },
      ['concept_results[0].activity_session_uid', 'concept_results[1].concept_uid', 'concept_results[2].question_type'],
    );
    expect(errors['concept_results[0].activity_session_uid']!.join(' ')).toContain(`" ${uids.sessions.ben}"`);
  });
});

describe('size', () => {
  it('answers 413 payload_too_large for more than 10,000 concept results, and changes nothing', async () => {
    const compact = (index: number) => ({
      activity_session_uid: uids.sessions.ben,
      concept_uid: uids.concepts.parallel,
      question_type: 'q',
      metadata: { correct: 1, attemptNumber: 1, questionNumber: index },
    });
    const before = await gateway.snapshot();
    const answer = await finish({
      follow_up: true,
      edition_id: 'edition-big',
      concept_results: Array.from({ length: 10_001 }, (_, index) => compact(index)),
    });
    expect(answer.status).toBe(413);
    expect(answer.body.meta.status).toBe('payload_too_large');
    expect(await gateway.snapshot()).toBe(before);
  });
});

describe('statements', () => {
  it('the REST route sends 13, as GraphQL does, for 1 concept result and for 500', async () => {
    const sessionUids = [uids.sessions.ben, uids.sessions.chloe, uids.sessions.dev];
    const statementsFor = async (count: number) => {
      await gateway.reset();
      const before = gateway.statements();
      const results = Array.from({ length: count }, (_, index) =>
        legacyResult(sessionUids[index % 3]!, index % 2 === 0 ? uids.concepts.parallel : uids.concepts.compound, index + 1),
      );
      const answer = await finish({ follow_up: true, edition_id: 'e', concept_results: results });
      expect(answer.status, answer.text.slice(0, 500)).toBe(200);
      return gateway.statements() - before;
    };
    const one = await statementsFor(1);
    const many = await statementsFor(500);
    console.info(`REST finish_lesson statements: 1 result → ${one}, 500 results → ${many}`);
    expect([one, many]).toEqual([13, 13]);
  });
});
