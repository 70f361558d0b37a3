import { describe, expect, it } from 'vitest';
import { gatewayForTests } from '../../kit/gateway.ts';
import { fixture, ids, tokens, uids } from '../../kit/fixture.ts';
import { ISO_8601, notFoundBody, successMeta as success, unauthorizedBody } from '../../kit/rest.ts';

// The anonymous activity reads (docs/contract.md, REST routes): GET /activities/:id, its follow-up and
// supporting-info views, and uids_and_flags, in the legacy shape. Which activity an id names, and the
// rest of the rules: tests/integration/activities/.

const gateway = gatewayForTests();

/** The fixture's lesson as the legacy body shows it: snake_case, numeric ids, an anonymous path. */
const lesson = fixture().activities[0]!;
const lessonBody = {
  id: lesson.id,
  uid: lesson.uid,
  name: lesson.name,
  description: lesson.description,
  flags: lesson.flags,
  data: lesson.data,
  supporting_info: lesson.supportingInfo,
  follow_up_activity_id: lesson.followUpActivityId,
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
        'id',
        'uid',
        'name',
        'description',
        'flags',
        'data',
        'supporting_info',
        'follow_up_activity_id',
        'classification',
        'anonymous_path',
        'created_at',
        'updated_at',
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

const views = [
  {
    view: 'follow_up_activity_name_and_supporting_info',
    ofLesson: { follow_up_activity_name: 'Parallel Structure Practice', supporting_info: 'https://example.org/plan.pdf' },
    without: {
      what: 'no follow-up and no supporting info',
      id: uids.followUp,
      body: { follow_up_activity_name: null, supporting_info: null },
    },
    unknown: 'no-such-activity-uid',
  },
  {
    view: 'supporting_info',
    ofLesson: { supporting_info: 'https://example.org/plan.pdf' },
    without: { what: 'no supporting info', id: uids.lonelyActivity, body: { supporting_info: null } },
    unknown: '424242',
  },
];

describe.each(views)('GET /api/v1/activities/:id/$view', ({ view, ofLesson, without, unknown }) => {
  const path = (id: string | number) => `/api/v1/activities/${id}/${view}`;

  it("answers the lesson's, by uid or by numeric id", async () => {
    for (const id of [uids.lesson, ids.lesson]) {
      const answer = await gateway.rest('GET', path(id));

      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(ofLesson);
    }
  });

  it(`answers nulls for an activity with ${without.what}`, async () => {
    const answer = await gateway.rest('GET', path(without.id));

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(without.body);
  });

  it('answers 404 for an unknown activity', async () => {
    const answer = await gateway.rest('GET', path(unknown));

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
  });

  it('answers 401 to a wrong token', async () => {
    const answer = await gateway.rest('GET', path(uids.lesson), { token: 'not-a-real-token-0123456789' });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
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
