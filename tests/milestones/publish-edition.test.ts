// POST /api/v1/published_edition and the GraphQL publishEdition mutation (SPEC §2, §3): for the
// signed-in user, the objective and the milestone 'Publish Customized Lesson' exist, and the user has
// one UserObjective and one UserMilestone for them, however many calls arrive, and at once.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from './kit/gateway.ts';
import { ids, tokens } from './kit/fixture.ts';

const PUBLISH = 'Publish Customized Lesson';
const COMPLETE = 'Complete Customized Lesson';

let gateway: Gateway;

const publish = (token?: string, headers: Record<string, string> = {}) =>
  gateway.rest('POST', '/api/v1/published_edition', { ...(token ? { token } : {}), headers });

const PUBLISH_MUTATION = 'mutation { publishEdition { user { id name } } }';

/** The rows that say `userId` published an edition. */
async function publishRows(userId: number) {
  const db = gateway.database.prisma;
  return {
    objectives: await db.objective.count({ where: { name: PUBLISH } }),
    milestones: await db.milestone.count({ where: { name: PUBLISH } }),
    userObjectives: await db.userObjective.count({ where: { userId, objective: { name: PUBLISH } } }),
    userMilestones: await db.userMilestone.count({ where: { userId, milestone: { name: PUBLISH } } }),
  };
}

const one = { objectives: 1, milestones: 1, userObjectives: 1, userMilestones: 1 };

async function viewerRecords(token: string) {
  const answer = await gateway.graphql('{ viewer { id objectives { name } milestones { name } } }', {}, token);
  expect(answer.errors).toBeUndefined();
  return answer.data.viewer;
}

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway?.close());
beforeEach(() => gateway.reset());

describe('POST /api/v1/published_edition', () => {
  it('answers {} and gives the user the objective and the milestone, creating both records', async () => {
    expect(await publishRows(ids.owner)).toEqual({ objectives: 0, milestones: 0, userObjectives: 0, userMilestones: 0 });
    const answer = await publish(tokens.owner);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({});
    expect(await publishRows(ids.owner)).toEqual(one);
    expect(await viewerRecords(tokens.owner)).toEqual({ id: String(ids.owner), objectives: [{ name: PUBLISH }], milestones: [{ name: PUBLISH }] });
    // Nobody else got anything.
    expect(await gateway.database.prisma.userObjective.count()).toBe(1);
    expect(await gateway.database.prisma.userMilestone.count()).toBe(1);
  });

  it('leaves exactly one of each when called twice', async () => {
    expect((await publish(tokens.owner)).status).toBe(200);
    const again = await publish(tokens.owner);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({});
    expect(await publishRows(ids.owner)).toEqual(one);
  });

  it('leaves exactly one of each after 50 calls at once', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => publish(tokens.owner)));
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({});
    }
    expect(await publishRows(ids.owner)).toEqual(one);
    expect(await gateway.database.prisma.objective.count()).toBe(1);
    expect(await gateway.database.prisma.milestone.count()).toBe(1);
    expect(await gateway.database.prisma.userObjective.count()).toBe(1);
    expect(await gateway.database.prisma.userMilestone.count()).toBe(1);
  });

  it('gives each of several users at once their own pair, sharing one objective and one milestone record', async () => {
    const users = [
      [tokens.owner, ids.owner],
      [tokens.coteacher, ids.coteacher],
      [tokens.otherTeacher, ids.otherTeacher],
      [tokens.student, ids.students[0]],
      [tokens.staff, ids.staff],
    ] as const;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => publish(users[index % users.length]![0])));
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    for (const [, userId] of users) expect(await publishRows(userId)).toEqual(one);
    expect(await gateway.database.prisma.userObjective.count()).toBe(users.length);
    expect(await gateway.database.prisma.userMilestone.count()).toBe(users.length);
  });

  it('reuses records that already exist and keeps the user’s other milestones', async () => {
    const db = gateway.database.prisma;
    const objective = await db.objective.create({ data: { name: PUBLISH } });
    const milestone = await db.milestone.create({ data: { name: PUBLISH } });
    const complete = await db.milestone.create({ data: { name: COMPLETE } });
    await db.userObjective.create({ data: { userId: ids.otherTeacher, objectiveId: objective.id } });
    await db.userMilestone.create({ data: { userId: ids.otherTeacher, milestoneId: milestone.id } });
    await db.userMilestone.create({ data: { userId: ids.owner, milestoneId: complete.id } });

    expect((await publish(tokens.owner)).status).toBe(200);
    expect(await publishRows(ids.owner)).toEqual(one);
    expect(await publishRows(ids.otherTeacher)).toEqual(one);
    const viewer = await viewerRecords(tokens.owner);
    expect(viewer.milestones.map((m: { name: string }) => m.name).sort()).toEqual([COMPLETE, PUBLISH]);
  });

  it('is open to any signed-in user: a student and staff too', async () => {
    for (const [token, userId] of [[tokens.student, ids.students[0]], [tokens.staff, ids.staff]] as const) {
      const answer = await publish(token);
      expect(answer.status, answer.text).toBe(200);
      expect(await publishRows(userId)).toEqual(one);
    }
  });

  it('accepts HTTP Basic with the token as the user name (old clients)', async () => {
    const basic = `Basic ${Buffer.from(`${tokens.coteacher}:`).toString('base64')}`;
    const answer = await publish(undefined, { authorization: basic });
    expect(answer.status, answer.text).toBe(200);
    expect(await publishRows(ids.coteacher)).toEqual(one);
  });

  it('ignores a body', async () => {
    const answer = await gateway.rest('POST', '/api/v1/published_edition', { token: tokens.owner, body: { edition_id: 'x', anything: [1, 2] } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({});
    expect(await publishRows(ids.owner)).toEqual(one);
  });

  it('answers 401 to an anonymous caller and to a wrong token, and changes nothing', async () => {
    const before = await gateway.snapshot();
    for (const answer of [await publish(), await publish('wrong-token-0123456789abcdef'), await publish(undefined, { authorization: 'Bearer' })]) {
      expect(answer.status).toBe(401);
      expect(answer.body.meta.status).toBe('unauthorized');
      expect(typeof answer.body.meta.message).toBe('string');
    }
    expect(await gateway.snapshot()).toBe(before);
  });

  it('answers 401 to 50 anonymous calls at once, and changes nothing', async () => {
    const before = await gateway.snapshot();
    const answers = await Promise.all(Array.from({ length: 50 }, () => publish()));
    for (const answer of answers) expect(answer.status).toBe(401);
    expect(await gateway.snapshot()).toBe(before);
  });
});

describe('GraphQL publishEdition', () => {
  it('answers the user and gives them the objective and the milestone', async () => {
    const answer = await gateway.graphql(PUBLISH_MUTATION, {}, tokens.owner);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ publishEdition: { user: { id: String(ids.owner), name: 'Ada Park' } } });
    expect(await publishRows(ids.owner)).toEqual(one);
  });

  it('leaves exactly one of each after 50 calls at once, mixed with REST calls', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        index % 2 === 0
          ? gateway.graphql(PUBLISH_MUTATION, {}, tokens.owner).then((a) => ({ ok: a.errors === undefined && a.data?.publishEdition?.user?.id === String(ids.owner), detail: a }))
          : publish(tokens.owner).then((a) => ({ ok: a.status === 200, detail: a })),
      ),
    );
    for (const answer of answers) expect(answer.ok, JSON.stringify(answer.detail)).toBe(true);
    expect(await publishRows(ids.owner)).toEqual(one);
    expect(await gateway.database.prisma.userMilestone.count()).toBe(1);
    expect(await gateway.database.prisma.userObjective.count()).toBe(1);
  });

  it('UNAUTHENTICATED anonymously and with a wrong token; nothing changes', async () => {
    const before = await gateway.snapshot();
    for (const token of [undefined, 'wrong-token-0123456789abcdef']) {
      const answer = await gateway.graphql(PUBLISH_MUTATION, {}, token);
      expect(answer.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(answer.data?.publishEdition ?? null).toBeNull();
    }
    expect(await gateway.snapshot()).toBe(before);
  });
});
