import { describe, expect, it } from 'vitest';
import { gatewayForTests, type Gateway } from '../../kit/gateway.ts';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import {
  badRequestBody,
  forbiddenBody,
  invalidBody,
  ISO_8601,
  notFoundBody,
  rejectedRequest,
  successMeta as success,
  unauthorizedBody,
} from '../../kit/rest.ts';

// POST/PUT/DELETE /api/v1/activities (staff only; docs/contract.md, REST routes and Who may do what): the
// snake_case bodies in and out, the statuses and the envelope. Every rejected write leaves the database
// exactly as it was. The rules of activities (defaults, uids, follow-ups): tests/integration/activities/.

const gateway = gatewayForTests();

const GENERATED_UID = /^[A-Za-z0-9_-]{22}$/;

const rejected = (...request: Parameters<Gateway['rest']>) => rejectedRequest(gateway, ...request);

describe('POST /api/v1/activities', () => {
  it('creates an activity with defaults: a generated uid, flags ["beta"], empty data, nulls', async () => {
    const answer = await gateway.rest('POST', '/api/v1/activities', { token: tokens.staff, body: { activity: { name: 'Appositives' } } });

    expect(answer.status).toBe(200);
    const created = answer.body.activity;
    expect(answer.body).toEqual({
      activity: {
        id: expect.any(Number),
        uid: expect.stringMatching(GENERATED_UID),
        name: 'Appositives',
        description: '',
        flags: ['beta'],
        data: {},
        supporting_info: null,
        follow_up_activity_id: null,
        classification: null,
        anonymous_path: `/activity_sessions/anonymous?activity_id=${created.id}`,
        created_at: expect.stringMatching(ISO_8601),
        updated_at: expect.stringMatching(ISO_8601),
      },
      meta: success,
    });
    expect(created.id).toBeGreaterThan(ids.lonelyActivity);

    const read = await gateway.rest('GET', `/api/v1/activities/${created.uid}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(answer.body);
  });

  it('stores every field it is given and answers it in the read body', async () => {
    const given = {
      uid: 'custom-uid-appositives',
      name: 'Appositives',
      description: 'Rename a noun.',
      flags: ['alpha', 'private'],
      data: { slides: [{ type: 'CL-ST' }] },
      supporting_info: 'https://example.org/appositives.pdf',
      follow_up_activity_id: ids.followUp,
    };
    const answer = await gateway.rest('POST', '/api/v1/activities', {
      token: tokens.staff,
      body: { activity: { ...given, classification_id: 6 } },
    });

    expect(answer.status).toBe(200);
    expect(answer.body.activity).toEqual({
      ...given,
      id: expect.any(Number),
      classification: { id: 6, key: 'lessons', name: 'Quill Lessons' },
      anonymous_path: `/activity_sessions/anonymous?activity_id=${answer.body.activity.id}`,
      created_at: expect.stringMatching(ISO_8601),
      updated_at: expect.stringMatching(ISO_8601),
    });
    const followUp = await gateway.rest('GET', '/api/v1/activities/custom-uid-appositives/follow_up_activity_name_and_supporting_info');
    expect(followUp.body).toEqual({
      follow_up_activity_name: 'Parallel Structure Practice',
      supporting_info: 'https://example.org/appositives.pdf',
    });
  });

  it('treats explicit nulls as absent and ignores unknown keys', async () => {
    const answer = await gateway.rest('POST', '/api/v1/activities', {
      token: tokens.staff,
      body: { activity: { name: 'Appositives', uid: null, flags: null, supporting_info: null, colour: 'blue' }, extra: true },
    });

    expect(answer.status).toBe(200);
    expect(answer.body.activity).toMatchObject({ uid: expect.stringMatching(GENERATED_UID), flags: ['beta'], supporting_info: null });
    expect(answer.body.activity).not.toHaveProperty('colour');
  });

  it('answers 422 naming uid when the uid is already taken, and changes nothing', async () => {
    const answer = await rejected('POST', '/api/v1/activities', {
      token: tokens.staff,
      body: { activity: { uid: uids.lesson, name: 'Copy' } },
    });

    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(invalidBody({ uid: [expect.stringContaining(uids.lesson)] }));
  });

  it('answers 422 naming each wrong field, quoting the value, and changes nothing', async () => {
    const answer = await rejected('POST', '/api/v1/activities', {
      token: tokens.staff,
      body: { activity: { flags: 'beta', supporting_info: 'not a url', data: [1, 2] } },
    });

    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(
      invalidBody({
        name: [expect.any(String)],
        flags: [expect.stringContaining('"beta"')],
        supporting_info: [expect.stringContaining('"not a url"')],
        data: [expect.any(String)],
      }),
    );
  });

  it("answers 422 for an unknown follow-up activity or classification, in the body's own key names", async () => {
    const answer = await rejected('POST', '/api/v1/activities', {
      token: tokens.staff,
      body: { activity: { name: 'Appositives', follow_up_activity_id: 424242, classification_id: 99 } },
    });

    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(
      invalidBody({
        follow_up_activity_id: [expect.stringContaining('424242')],
        classification_id: [expect.stringContaining('99')],
      }),
    );
  });

  it('answers 400 to a body that is not a JSON object, and changes nothing', async () => {
    const array = await rejected('POST', '/api/v1/activities', { token: tokens.staff, body: [{ activity: { name: 'x' } }] });
    expect(array.status).toBe(400);
    expect(array.body).toEqual(badRequestBody);

    const text = await rejected('POST', '/api/v1/activities', {
      token: tokens.staff,
      payload: '{"activity": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(text.status).toBe(400);
    expect(text.body).toEqual(badRequestBody);
  });

  it.each([
    ['no activity', {}],
    ['an activity of null', { activity: null }],
    ['an activity that is a string', { activity: 'x' }],
  ])('answers 422 naming activity to a body with %s, and changes nothing', async (_what, body) => {
    const answer = await rejected('POST', '/api/v1/activities', { token: tokens.staff, body });

    expect(answer.status, answer.text).toBe(422);
    expect(Object.keys(answer.body.meta.errors)).toEqual(['activity']);
  });

  it('answers 401 to an anonymous caller, and changes nothing', async () => {
    const answer = await rejected('POST', '/api/v1/activities', { body: { activity: { name: 'Appositives' } } });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });

  it('answers 401 before looking at the body', async () => {
    const answer = await rejected('POST', '/api/v1/activities', { payload: 'not json', headers: { 'content-type': 'application/json' } });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });

  it.each([
    ['a teacher', tokens.owner],
    ['a student', tokens.student],
  ])('answers 403 to %s, and changes nothing', async (_who, token) => {
    const answer = await rejected('POST', '/api/v1/activities', { token, body: { activity: { name: 'Appositives' } } });

    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(forbiddenBody);
  });
});

describe('PUT /api/v1/activities/:id', () => {
  it('changes only the fields it is given and answers the read body', async () => {
    const before = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`);

    const answer = await gateway.rest('PUT', `/api/v1/activities/${uids.lesson}`, {
      token: tokens.staff,
      body: { activity: { name: 'Parallel Structure II' } },
    });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      activity: { ...before.body.activity, name: 'Parallel Structure II', updated_at: expect.stringMatching(ISO_8601) },
      meta: success,
    });
    expect(Date.parse(answer.body.activity.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.body.activity.updated_at));
    const read = await gateway.rest('GET', `/api/v1/activities/${ids.lesson}`);
    expect(read.body).toEqual(answer.body);
  });

  it('updates by numeric id, including flags, data, links and classification', async () => {
    const answer = await gateway.rest('PUT', `/api/v1/activities/${ids.lonelyActivity}`, {
      token: tokens.staff,
      body: {
        activity: {
          description: 'Join two subjects.',
          flags: ['archived'],
          data: { v: 2 },
          supporting_info: 'https://example.org/compound.pdf',
          follow_up_activity_id: ids.followUp,
          classification_id: 6,
        },
      },
    });

    expect(answer.status).toBe(200);
    expect(answer.body.activity).toMatchObject({
      id: ids.lonelyActivity,
      uid: uids.lonelyActivity,
      name: 'Compound Subjects',
      description: 'Join two subjects.',
      flags: ['archived'],
      data: { v: 2 },
      supporting_info: 'https://example.org/compound.pdf',
      follow_up_activity_id: ids.followUp,
      classification: { id: 6, key: 'lessons', name: 'Quill Lessons' },
    });
    const flags = await gateway.rest('GET', '/api/v1/activities/uids_and_flags');
    expect(flags.body[uids.lonelyActivity]).toEqual({ flag: 'archived' });
  });

  it('keeps a field sent as null (null means absent)', async () => {
    const answer = await gateway.rest('PUT', `/api/v1/activities/${uids.lesson}`, {
      token: tokens.staff,
      body: {
        activity: { supporting_info: null, follow_up_activity_id: null, classification_id: null, flags: null, description: 'New words.' },
      },
    });

    expect(answer.status).toBe(200);
    expect(answer.body.activity).toMatchObject({
      description: 'New words.',
      supporting_info: 'https://example.org/plan.pdf',
      follow_up_activity_id: ids.followUp,
      classification: { id: 6, key: 'lessons', name: 'Quill Lessons' },
      flags: ['production', 'beta'],
    });
  });

  it('answers 422 naming uid when the new uid belongs to another activity, and changes nothing', async () => {
    const answer = await rejected('PUT', `/api/v1/activities/${uids.lonelyActivity}`, {
      token: tokens.staff,
      body: { activity: { uid: uids.lesson } },
    });

    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(invalidBody({ uid: [expect.stringContaining(uids.lesson)] }));
  });

  it('answers 422 when the activity would follow up on itself, and changes nothing', async () => {
    const answer = await rejected('PUT', `/api/v1/activities/${ids.lesson}`, {
      token: tokens.staff,
      body: { activity: { follow_up_activity_id: ids.lesson } },
    });

    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(invalidBody({ follow_up_activity_id: [expect.any(String)] }));
  });

  it('answers 404 for an unknown activity, even to an anonymous caller', async () => {
    const staff = await rejected('PUT', '/api/v1/activities/424242', { token: tokens.staff, body: { activity: { name: 'x' } } });
    expect(staff.status).toBe(404);
    expect(staff.body).toEqual(notFoundBody);

    const anonymous = await rejected('PUT', '/api/v1/activities/424242', { body: { activity: { name: 'x' } } });
    expect(anonymous.status).toBe(404);
    expect(anonymous.body).toEqual(notFoundBody);
  });

  it('answers 401 to an anonymous caller, and changes nothing', async () => {
    const answer = await rejected('PUT', `/api/v1/activities/${uids.lesson}`, { body: { activity: { name: 'Hijacked' } } });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });

  it('answers 403 to a teacher, and changes nothing', async () => {
    const answer = await rejected('PUT', `/api/v1/activities/${uids.lesson}`, {
      token: tokens.owner,
      body: { activity: { name: 'Hijacked' } },
    });

    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(forbiddenBody);
  });

  it('answers 400 to staff sending a body that is not a JSON object, and changes nothing', async () => {
    const answer = await rejected('PUT', `/api/v1/activities/${uids.lesson}`, { token: tokens.staff, body: 'Parallel Structure II' });

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(badRequestBody);
  });

  it.each([
    ['no activity', {}, 'is required'],
    ['an activity of null', { activity: null }, 'is required'],
    ['an activity that is a string', { activity: 'x' }, '"x"'],
    ['an activity that is a list', { activity: [{ name: 'x' }] }, 'must be an object'],
  ])('answers 422 naming activity to a body with %s, and changes nothing', async (_what, body, message) => {
    const answer = await rejected('PUT', `/api/v1/activities/${uids.lesson}`, { token: tokens.staff, body });

    expect(answer.status, answer.text).toBe(422);
    expect(answer.body).toEqual(invalidBody({ activity: [expect.stringContaining(message)] }));
  });

  it('answers 422 naming activity to an empty body (an empty body counts as {})', async () => {
    const answer = await rejected('PUT', `/api/v1/activities/${uids.lesson}`, { token: tokens.staff });

    expect(answer.status, answer.text).toBe(422);
    expect(Object.keys(answer.body.meta.errors)).toEqual(['activity']);
  });

  it('answers 403 to a teacher before looking at the body', async () => {
    const answer = await rejected('PUT', `/api/v1/activities/${uids.lesson}`, { token: tokens.owner, body: [1, 2, 3] });

    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(forbiddenBody);
  });
});

describe('DELETE /api/v1/activities/:id', () => {
  it("answers 'Activity Destroy Successful', after which the activity is gone", async () => {
    const answer = await gateway.rest('DELETE', `/api/v1/activities/${uids.lonelyActivity}`, { token: tokens.staff });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ meta: { status: 'success', message: 'Activity Destroy Successful', errors: null } });

    const read = await gateway.rest('GET', `/api/v1/activities/${uids.lonelyActivity}`);
    expect(read.status).toBe(404);
    expect(read.body).toEqual(notFoundBody);
    const flags = await gateway.rest('GET', '/api/v1/activities/uids_and_flags');
    expect(Object.keys(flags.body).sort()).toEqual([uids.lesson, uids.followUp].sort());
  });

  it('deletes by numeric id; a second delete answers 404', async () => {
    const first = await gateway.rest('DELETE', `/api/v1/activities/${ids.lonelyActivity}`, { token: tokens.staff });
    expect(first.status).toBe(200);

    const second = await rejected('DELETE', `/api/v1/activities/${ids.lonelyActivity}`, { token: tokens.staff });
    expect(second.status).toBe(404);
    expect(second.body).toEqual(notFoundBody);
  });

  it('answers 401 to an anonymous caller, and changes nothing', async () => {
    const answer = await rejected('DELETE', `/api/v1/activities/${uids.lonelyActivity}`);

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });

  it('answers 401 to a wrong token, and changes nothing', async () => {
    const answer = await rejected('DELETE', `/api/v1/activities/${uids.lonelyActivity}`, { token: 'not-a-real-token-0123456789' });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });

  it('answers 403 to a teacher, and changes nothing', async () => {
    const answer = await rejected('DELETE', `/api/v1/activities/${uids.lonelyActivity}`, { token: tokens.owner });

    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(forbiddenBody);
  });

  it('answers 404 for an unknown activity, even to an anonymous caller', async () => {
    const answer = await rejected('DELETE', '/api/v1/activities/no-such-activity-uid');

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });
});
