import { describe, expect, it } from 'vitest';
import { gatewayForTests, type Gateway } from '../../kit/gateway.ts';
import { ids, legacyResult, tokens, uids } from '../../kit/fixture.ts';
import { DEFAULT_APP_URL } from '../../kit/finish-lesson.ts';
import {
  badRequestBody,
  basicAuth,
  classroomActivityPath,
  finishLessonPath,
  forbiddenBody,
  multipartForm,
  NOT_FOUND_MESSAGE,
  notFoundBody,
  payloadTooLargeBody,
  rejectedRequest,
  unauthorizedBody,
  urlEncodedForm,
} from '../../kit/rest.ts';

// The error envelope (docs/contract.md, Errors) and the order of checks (docs/contract.md, Who may do
// what): route and id (404), credentials (401), permission (403), then the body (400, 413, 422).

const gateway = gatewayForTests();

const WRONG_TOKEN = 'not-a-real-token-0123456789';
const UNKNOWN_ID = 999;

const rejected = (...request: Parameters<Gateway['rest']>) => rejectedRequest(gateway, ...request);

describe('the error envelope', () => {
  it('400: {"meta": {"status": "bad_request", ...}} for a body that is not a JSON object', async () => {
    const answer = await gateway.rest('PUT', finishLessonPath(), { token: tokens.owner, body: [] });

    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ meta: { status: 'bad_request', message: expect.stringMatching(/\S/), errors: null } });
  });

  it('401: {"meta": {"status": "unauthorized", ...}} without credentials', async () => {
    const answer = await gateway.rest('GET', classroomActivityPath('student_names'));

    expect(answer.status).toBe(401);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ meta: { status: 'unauthorized', message: expect.stringMatching(/\S/), errors: null } });
  });

  it('403: {"meta": {"status": "forbidden", ...}} for a signed-in user without permission', async () => {
    const answer = await gateway.rest('GET', classroomActivityPath('student_names'), { token: tokens.otherTeacher });

    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ meta: { status: 'forbidden', message: expect.stringMatching(/\S/), errors: null } });
  });

  it('404: {"meta": {"status": "not_found", "message": "The resource you were looking for does not exist"}}', async () => {
    const answer = await gateway.rest('GET', classroomActivityPath('student_names', UNKNOWN_ID), { token: tokens.owner });

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ meta: { status: 'not_found', message: NOT_FOUND_MESSAGE, errors: null } });
  });

  it('422: {"meta": {"status": "invalid", "errors": {field path: [messages quoting the value]}}}', async () => {
    const body = { concept_results: [legacyResult(uids.sessions.ben), legacyResult(uids.sessions.chloe, 'no-such-concept')] };

    const answer = await rejected('PUT', finishLessonPath(), { token: tokens.owner, body });

    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      meta: {
        status: 'invalid',
        message: expect.stringMatching(/\S/),
        errors: { 'concept_results[1].concept_uid': [expect.stringContaining('"no-such-concept"')] },
      },
    });
  });

  it.each([
    ['GET', '/api/v1/nothing-here'],
    ['GET', '/nothing-here'],
    ['GET', `/api/v1/classroom_activities/${ids.classroomActivity}`],
    ['GET', `/api/v1/activities/${uids.lesson}/no_such_view`],
    ['POST', '/api/v1/activities/uids_and_flags'],
    ['GET', '/api/v1/published_edition'],
    ['DELETE', `/api/v1/classroom_activities/${ids.classroomActivity}/finish_lesson`],
    ['GET', '/api/v2/activities/uids_and_flags'],
  ] as const)('answers an unknown path, %s %s, with 404 and the envelope', async (method, path) => {
    const answer = await gateway.rest(method, path, { token: tokens.owner });

    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toEqual(notFoundBody);
  });
});

const classroomActivityRoutes = [
  ['GET', 'student_names'],
  ['GET', 'teacher_and_classroom_name'],
  ['PUT', 'unpin_and_lock_activity'],
  ['PUT', 'finish_lesson'],
] as const;

describe.each(classroomActivityRoutes)('who may call %s …/%s, checked in order', (method, route) => {
  const path = (id: number | string) => classroomActivityPath(route, id);

  it('answers 404 for an unknown id without a token', async () => {
    const answer = await rejected(method, path(UNKNOWN_ID));

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('answers 404 for an unknown id with a wrong token', async () => {
    const answer = await rejected(method, path(UNKNOWN_ID), { token: WRONG_TOKEN });

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('answers 404 for an id that is not a number', async () => {
    const answer = await rejected(method, path('abc'), { token: tokens.owner });

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('answers 404 for a hidden classroom activity, even to its own teacher', async () => {
    const answer = await rejected(method, path(ids.hiddenClassroomActivity), { token: tokens.owner });

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('answers 404 for a hidden classroom activity without a token', async () => {
    const answer = await rejected(method, path(ids.hiddenClassroomActivity));

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('answers 401 for a known id without a token, and changes nothing', async () => {
    const answer = await rejected(method, path(ids.classroomActivity));

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });

  it('answers 401 for a known id with a wrong token, and changes nothing', async () => {
    const answer = await rejected(method, path(ids.classroomActivity), { token: WRONG_TOKEN });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });

  it.each([
    ['an unknown scheme', 'Token owner-token-0123456789abcdef'],
    ['Bearer with no token', 'Bearer'],
    ['HTTP Basic with a password', basicAuth(tokens.owner, 'secret').authorization!],
    ['HTTP Basic that is not base64 of user:password', 'Basic %%%'],
  ])('answers 401 to %s, and changes nothing', async (_what, authorization) => {
    const answer = await rejected(method, path(ids.classroomActivity), { headers: { authorization } });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });

  it('answers 401 to a revoked token, and changes nothing', async () => {
    await gateway.writeTokensOrUsers((prisma) =>
      prisma.accessToken.updateMany({ where: { userId: ids.owner }, data: { revokedAt: new Date() } }),
    );

    const answer = await rejected(method, path(ids.classroomActivity), { token: tokens.owner });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });

  it('answers 401 to an expired token, and changes nothing', async () => {
    await gateway.writeTokensOrUsers((prisma) =>
      prisma.accessToken.updateMany({ where: { userId: ids.owner }, data: { expiresAt: new Date(Date.now() - 60_000) } }),
    );

    const answer = await rejected(method, path(ids.classroomActivity), { token: tokens.owner });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });

  it.each([
    ['a teacher of another classroom', tokens.otherTeacher],
    ['a student of the classroom', tokens.student],
    ['staff who teach no class', tokens.staff],
  ])('answers 403 to %s, and changes nothing', async (_who, token) => {
    const answer = await rejected(method, path(ids.classroomActivity), { token });

    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(forbiddenBody);
  });

  it('answers 200 to the owner', async () => {
    const answer = await gateway.rest(method, path(ids.classroomActivity), { token: tokens.owner });

    expect(answer.status).toBe(200);
  });

  it('answers 200 to a co-teacher', async () => {
    const answer = await gateway.rest(method, path(ids.classroomActivity), { token: tokens.coteacher });

    expect(answer.status).toBe(200);
  });

  it('accepts HTTP Basic with the token as the user name and an empty password', async () => {
    const answer = await gateway.rest(method, path(ids.classroomActivity), { headers: basicAuth(tokens.owner) });

    expect(answer.status).toBe(200);
  });

  it('accepts the Bearer scheme in any letter case', async () => {
    const answer = await gateway.rest(method, path(ids.classroomActivity), { headers: { authorization: `bearer ${tokens.owner}` } });

    expect(answer.status).toBe(200);
  });
});

describe('the finish_lesson body is judged last', () => {
  const notJson = { payload: '{"concept_results": [', headers: { 'content-type': 'application/json' } };

  it.each([
    ['404, not 400, to a bad body on an unknown id', UNKNOWN_ID, { ...notJson, token: tokens.owner }, 404, notFoundBody],
    ['404, not 401, to a bad body on an unknown id without a token', UNKNOWN_ID, notJson, 404, notFoundBody],
    ['401, not 400, to a bad body without a token', ids.classroomActivity, notJson, 401, unauthorizedBody],
    ['401, not 400, to a bad body with a wrong token', ids.classroomActivity, { ...notJson, token: WRONG_TOKEN }, 401, unauthorizedBody],
    [
      "403, not 400, to another classroom's teacher with a bad body",
      ids.classroomActivity,
      { ...notJson, token: tokens.otherTeacher },
      403,
      forbiddenBody,
    ],
    [
      '403, not 422, to a student with an invalid body',
      ids.classroomActivity,
      { token: tokens.student, body: { concept_results: [{}] } },
      403,
      forbiddenBody,
    ],
    [
      '401, not 400, to a form without a `json` field and no token',
      ids.classroomActivity,
      urlEncodedForm({ other: '1' }),
      401,
      unauthorizedBody,
    ],
    ['400 to the teacher once access is settled', ids.classroomActivity, { ...notJson, token: tokens.owner }, 400, badRequestBody],
  ] as const)('answers %s, and changes nothing', async (_what, id, request, status, body) => {
    const answer = await rejected('PUT', finishLessonPath(id), request);

    expect(answer.status).toBe(status);
    expect(answer.body).toEqual(body);
  });
});

describe('a body over BODY_LIMIT', () => {
  const small = gatewayForTests({ BODY_LIMIT: '1kb' });

  const bigLesson = {
    concept_results: Array.from({ length: 12 }, (_, n) => legacyResult(uids.sessions.ben, uids.concepts.parallel, n + 1)),
  };

  async function tooLarge(...request: Parameters<Gateway['rest']>) {
    const answer = await rejectedRequest(small, ...request);
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toEqual(payloadTooLargeBody);
  }

  it('answers 413 with the envelope to a JSON body, and changes nothing', async () => {
    expect(JSON.stringify(bigLesson).length).toBeGreaterThan(1024);
    await tooLarge('PUT', finishLessonPath(), { token: tokens.owner, body: bigLesson });
  });

  it('answers 413 to a url-encoded form, and changes nothing', async () => {
    await tooLarge('PUT', finishLessonPath(), { token: tokens.owner, ...urlEncodedForm({ json: JSON.stringify(bigLesson) }) });
  });

  it('answers 413 to a multipart form, and changes nothing', async () => {
    await tooLarge('PUT', finishLessonPath(), { token: tokens.owner, ...multipartForm({ json: JSON.stringify(bigLesson) }) });
  });

  it('answers 413 to a multipart form whose fields are each small but add up past the limit', async () => {
    await tooLarge('PUT', finishLessonPath(), {
      token: tokens.owner,
      ...multipartForm({ notes: 'n'.repeat(600), more: 'm'.repeat(600), json: '{}' }),
    });
  });

  it('answers 413 to an activity write, and changes nothing', async () => {
    await tooLarge('POST', '/api/v1/activities', {
      token: tokens.staff,
      body: { activity: { name: 'Big', description: 'x'.repeat(2000) } },
    });
  });

  it('accepts a body under the limit', async () => {
    const answer = await small.rest('PUT', finishLessonPath(), {
      token: tokens.owner,
      body: { concept_results: [legacyResult(uids.sessions.ben)] },
    });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ follow_up_url: DEFAULT_APP_URL });
  });
});
