import { describe, expect, it } from 'vitest';
import { gatewayForTests, type Gateway } from '../../kit/gateway.ts';
import { legacyResult, tokens, uids } from '../../kit/fixture.ts';
import { readClassroomActivity } from '../../kit/graphql.ts';
import { DEFAULT_APP_URL } from '../../kit/finish-lesson.ts';
import {
  badRequestBody,
  finishLessonPath,
  invalidBody,
  multipartForm,
  rejectedRequest,
  unauthorizedBody,
  urlEncodedForm,
} from '../../kit/rest.ts';

// The shapes a finish_lesson body may arrive in (docs/contract.md, REST routes): the lessons client's form
// (url-encoded or multipart) with one `json` field, a plain JSON body, or no body at all. The rules
// themselves: tests/integration/classroom-activities/finish-lesson.test.ts; the fields: finish-lesson.test.ts.

const gateway = gatewayForTests();

const FINISH_LESSON_PATH = finishLessonPath();
const FOLLOW_UP_URL = /^http:\/\/localhost:3000\/teachers\/classroom_activities\/(\d+)\/activity_from_classroom_activity$/;

const lesson = { concept_results: [legacyResult(uids.sessions.ben)] };
const rejected = (...request: Parameters<Gateway['rest']>) => rejectedRequest(gateway, ...request);

/** Ben answered, the others were absent: his session alone remains, finished, with his result. */
async function expectFinishedWithBensResult() {
  expect(await readClassroomActivity(gateway)).toEqual({
    locked: true,
    pinned: false,
    completed: true,
    editionId: null,
    sessions: [
      {
        uid: uids.sessions.ben,
        state: 'FINISHED',
        percentage: 1,
        completedAt: expect.any(String),
        isFinalScore: true,
        conceptResults: [
          { concept: { uid: uids.concepts.parallel }, questionType: 'lessons-slide', metadata: legacyResult(uids.sessions.ben).metadata },
        ],
      },
    ],
  });
}

const forms = [
  ['url-encoded', urlEncodedForm],
  ['multipart', multipartForm],
] as const;

describe.each(forms)('PUT finish_lesson with a %s form', (_kind, form) => {
  it('reads the JSON text of the `json` field and finishes the lesson', async () => {
    const answer = await gateway.rest('PUT', FINISH_LESSON_PATH, { token: tokens.owner, ...form({ json: JSON.stringify(lesson) }) });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
    await expectFinishedWithBensResult();
  });

  it('assigns the follow-up and stores the edition id when the json asks for them', async () => {
    const answer = await gateway.rest('PUT', FINISH_LESSON_PATH, {
      token: tokens.owner,
      ...form({ json: JSON.stringify({ ...lesson, follow_up: true, edition_id: 'edition-form' }) }),
    });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ follow_up_url: expect.stringMatching(FOLLOW_UP_URL) });
    const followUpId = Number(FOLLOW_UP_URL.exec(answer.body.follow_up_url)![1]);
    expect(await readClassroomActivity(gateway, followUpId)).toMatchObject({
      locked: false,
      pinned: false,
      completed: false,
      sessions: [],
    });
    expect((await readClassroomActivity(gateway))!.editionId).toBe('edition-form');
  });

  it('ignores other fields next to `json`', async () => {
    const answer = await gateway.rest('PUT', FINISH_LESSON_PATH, {
      token: tokens.owner,
      ...form({ utf8: '✓', json: JSON.stringify(lesson), commit: 'Finish' }),
    });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
    await expectFinishedWithBensResult();
  });

  it('answers 400 to a form without a `json` field, and changes nothing', async () => {
    const answer = await rejected('PUT', FINISH_LESSON_PATH, { token: tokens.owner, ...form({ data: JSON.stringify(lesson) }) });

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(badRequestBody);
  });

  it.each([
    ['a JSON array', JSON.stringify([lesson])],
    ['a JSON string', JSON.stringify('finish')],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['text that is not JSON', '{"concept_results": ['],
    ['empty', ''],
  ])('answers 400 when `json` holds %s, and changes nothing', async (_what, json) => {
    const answer = await rejected('PUT', FINISH_LESSON_PATH, { token: tokens.owner, ...form({ json }) });

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(badRequestBody);
  });

  it('answers 422 naming the offending field when the json object is wrong, and changes nothing', async () => {
    const json = JSON.stringify({ concept_results: [legacyResult('no-such-session-uid')] });

    const answer = await rejected('PUT', FINISH_LESSON_PATH, { token: tokens.owner, ...form({ json }) });

    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(
      invalidBody({ 'concept_results[0].activity_session_uid': [expect.stringContaining('no-such-session-uid')] }),
    );
  });
});

describe('PUT finish_lesson with a broken multipart body', () => {
  it('answers 400 as for a form without `json`, and changes nothing', async () => {
    const answer = await rejected('PUT', FINISH_LESSON_PATH, {
      token: tokens.owner,
      payload: `json=${JSON.stringify(lesson)}`,
      headers: { 'content-type': 'multipart/form-data; boundary=----neverSent' },
    });

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(badRequestBody);
  });

  it('answers 401 before judging it when there is no token', async () => {
    const answer = await rejected('PUT', FINISH_LESSON_PATH, {
      payload: 'garbage',
      headers: { 'content-type': 'multipart/form-data; boundary=----neverSent' },
    });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });
});

describe('PUT finish_lesson with a plain JSON body', () => {
  it('finishes the lesson', async () => {
    const answer = await gateway.rest('PUT', FINISH_LESSON_PATH, { token: tokens.owner, body: lesson });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
    await expectFinishedWithBensResult();
  });

  it('reads JSON sent without a content type', async () => {
    const answer = await gateway.rest('PUT', FINISH_LESSON_PATH, { token: tokens.owner, payload: JSON.stringify(lesson) });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
    await expectFinishedWithBensResult();
  });

  it('answers 400 to a JSON array, and changes nothing', async () => {
    const answer = await rejected('PUT', FINISH_LESSON_PATH, { token: tokens.owner, body: [lesson] });

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(badRequestBody);
  });

  it.each([
    ['a JSON string', '"finish"'],
    ['a JSON number', '1'],
    ['JSON true', 'true'],
    ['JSON null (JSON, but not an object)', 'null'],
    ['text that is not JSON', 'concept_results=[]'],
    ['truncated JSON', '{"concept_results": [{"activity_session_uid": '],
  ])('answers 400 to %s, and changes nothing', async (_what, payload) => {
    const answer = await rejected('PUT', FINISH_LESSON_PATH, {
      token: tokens.owner,
      payload,
      headers: { 'content-type': 'application/json' },
    });

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(badRequestBody);
  });
});

describe('PUT finish_lesson with an empty body', () => {
  it('counts no body at all as {}: every absent student is dropped', async () => {
    const answer = await gateway.rest('PUT', FINISH_LESSON_PATH, { token: tokens.owner });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
    expect(await readClassroomActivity(gateway)).toEqual({ locked: true, pinned: false, completed: true, editionId: null, sessions: [] });
  });

  it('counts an empty JSON body as {}', async () => {
    const answer = await gateway.rest('PUT', FINISH_LESSON_PATH, {
      token: tokens.owner,
      payload: '',
      headers: { 'content-type': 'application/json' },
    });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
    expect(await readClassroomActivity(gateway)).toMatchObject({ completed: true, sessions: [] });
  });
});
