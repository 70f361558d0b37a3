import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../kit/gateway.ts';
import { ids, tokens, uids } from '../kit/fixture.ts';
import { fixtureWith, ISO_8601, notFoundBody, unauthorizedBody } from './helpers.ts';

// The anonymous activity reads of SPEC §3: GET /activities/:id, its follow-up and supporting-info views,
// and uids_and_flags.

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway?.close());
beforeEach(() => gateway.reset());

const success = { status: 'success', message: null, errors: null };

const lessonBody = {
  id: ids.lesson,
  uid: uids.lesson,
  name: 'Parallel Structure',
  description: 'Build sentences whose parts match.',
  flags: ['production', 'beta'],
  data: { questions: ['q1'] },
  supporting_info: 'https://example.org/plan.pdf',
  follow_up_activity_id: ids.followUp,
  classification: { id: 6, key: 'lessons', name: 'Quill Lessons' },
  anonymous_path: `/activity_sessions/anonymous?activity_id=${ids.lesson}`,
  created_at: expect.stringMatching(ISO_8601),
  updated_at: expect.stringMatching(ISO_8601),
};

describe('GET /api/v1/activities/:id', () => {
  it('reads an activity by uid, with every documented key and nothing else', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`);

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ activity: lessonBody, meta: success });
    expect(Object.keys(answer.body).sort()).toEqual(['activity', 'meta']);
    expect(Object.keys(answer.body.activity).sort()).toEqual(
      [
        'id', 'uid', 'name', 'description', 'flags', 'data', 'supporting_info', 'follow_up_activity_id',
        'classification', 'anonymous_path', 'created_at', 'updated_at',
      ].sort(),
    );
  });

  it('reads the same activity by its numeric id', async () => {
    const byUid = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`);
    const byId = await gateway.rest('GET', `/api/v1/activities/${ids.lesson}`);

    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({ activity: lessonBody, meta: success });
    expect(byId.body).toEqual(byUid.body);
  });

  it('answers ids as JSON numbers and dates as ISO 8601 instants', async () => {
    const { body } = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`);

    expect(typeof body.activity.id).toBe('number');
    expect(typeof body.activity.follow_up_activity_id).toBe('number');
    expect(typeof body.activity.classification.id).toBe('number');
    for (const date of [body.activity.created_at, body.activity.updated_at]) {
      expect(new Date(date).toISOString()).toBe(date);
    }
  });

  it('answers null for what an activity does not have: follow-up, classification, supporting info', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${uids.lonelyActivity}`);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      activity: {
        id: ids.lonelyActivity,
        uid: uids.lonelyActivity,
        name: 'Compound Subjects',
        description: '',
        flags: [],
        data: {},
        supporting_info: null,
        follow_up_activity_id: null,
        classification: null,
        anonymous_path: `/activity_sessions/anonymous?activity_id=${ids.lonelyActivity}`,
        created_at: expect.stringMatching(ISO_8601),
        updated_at: expect.stringMatching(ISO_8601),
      },
      meta: success,
    });
  });

  it("tries the uid first: an activity whose uid is another activity's numeric id wins", async () => {
    await gateway.reset(fixtureWith({ activities: [{ id: 30, uid: String(ids.lesson), name: 'Uid Looks Numeric', flags: ['alpha'] }] }));

    const byUid = await gateway.rest('GET', `/api/v1/activities/${ids.lesson}`);
    expect(byUid.status).toBe(200);
    expect(byUid.body.activity).toMatchObject({ id: 30, uid: String(ids.lesson), name: 'Uid Looks Numeric', anonymous_path: '/activity_sessions/anonymous?activity_id=30' });

    const byId = await gateway.rest('GET', '/api/v1/activities/30');
    expect(byId.status).toBe(200);
    expect(byId.body.activity).toMatchObject({ id: 30, uid: String(ids.lesson) });

    // The lesson itself is still reachable by its own uid.
    const lesson = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`);
    expect(lesson.body.activity).toMatchObject({ id: ids.lesson, uid: uids.lesson });
  });

  it.each([
    ['an unknown uid', 'no-such-activity-uid'],
    ['an unknown numeric id', '999999'],
    ['a number too large for an id', '99999999999999999999'],
    ['a negative number', '-1'],
  ])('answers 404 with the error envelope for %s', async (_what, id) => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${encodeURIComponent(id)}`);

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('serves signed-in callers as well as anonymous ones', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`, { token: tokens.student });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ activity: lessonBody, meta: success });
  });

  it('answers 401 to a wrong token on a known activity, rather than reading it anonymously', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`, { token: 'not-a-real-token-0123456789' });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });

  it('answers 404 to a wrong token on an unknown activity (the id is checked first)', async () => {
    const answer = await gateway.rest('GET', '/api/v1/activities/no-such-activity-uid', { token: 'not-a-real-token-0123456789' });

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });
});

describe('GET /api/v1/activities/:id/follow_up_activity_name_and_supporting_info', () => {
  it("answers the follow-up activity's name and the supporting-info link", async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}/follow_up_activity_name_and_supporting_info`);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ follow_up_activity_name: 'Parallel Structure Practice', supporting_info: 'https://example.org/plan.pdf' });
  });

  it('accepts the numeric id too', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${ids.lesson}/follow_up_activity_name_and_supporting_info`);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ follow_up_activity_name: 'Parallel Structure Practice', supporting_info: 'https://example.org/plan.pdf' });
  });

  it('answers nulls for an activity with no follow-up and no supporting info', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${uids.followUp}/follow_up_activity_name_and_supporting_info`);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ follow_up_activity_name: null, supporting_info: null });
  });

  it('answers 404 for an unknown activity', async () => {
    const answer = await gateway.rest('GET', '/api/v1/activities/no-such-activity-uid/follow_up_activity_name_and_supporting_info');

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('answers 401 to a wrong token', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}/follow_up_activity_name_and_supporting_info`, { token: 'not-a-real-token-0123456789' });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });
});

describe('GET /api/v1/activities/:id/supporting_info', () => {
  it('answers the supporting-info link', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}/supporting_info`);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ supporting_info: 'https://example.org/plan.pdf' });
  });

  it('accepts the numeric id too', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${ids.lesson}/supporting_info`);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ supporting_info: 'https://example.org/plan.pdf' });
  });

  it('answers null when the activity has none', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${uids.lonelyActivity}/supporting_info`);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ supporting_info: null });
  });

  it('answers 404 for an unknown activity', async () => {
    const answer = await gateway.rest('GET', '/api/v1/activities/424242/supporting_info');

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });
});

describe('GET /api/v1/activities/uids_and_flags', () => {
  it("maps every activity's uid to its first flag, null when it has none", async () => {
    const answer = await gateway.rest('GET', '/api/v1/activities/uids_and_flags');

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      [uids.lesson]: { flag: 'production' },
      [uids.followUp]: { flag: 'production' },
      [uids.lonelyActivity]: { flag: null },
    });
  });

  it('is an empty object when there are no activities', async () => {
    await gateway.reset({});

    const answer = await gateway.rest('GET', '/api/v1/activities/uids_and_flags');

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
  });

  it('answers 401 to a wrong token', async () => {
    const answer = await gateway.rest('GET', '/api/v1/activities/uids_and_flags', { token: 'not-a-real-token-0123456789' });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
  });
});
