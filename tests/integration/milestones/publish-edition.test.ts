// Publishing an edition (docs/contract.md, GraphQL; the REST route POST /api/v1/published_edition runs the
// same mutation, its translation is in tests/integration/rest/published-edition.test.ts): the signed-in user gets the
// objective and the milestone 'Publish Customized Lesson', both records exist once, and the user holds
// each once, however many calls arrive, and at once.

import { describe, expect, it } from 'vitest';
import { gatewayForTests } from '../../kit/gateway.ts';
import { ids, names, tokens } from '../../kit/fixture.ts';
import { errorCodes, viewerAchievements } from '../../kit/graphql.ts';
import { COMPLETE_CUSTOMIZED_LESSON as COMPLETE, PUBLISH_CUSTOMIZED_LESSON as PUBLISH } from '../../kit/finish-lesson.ts';
import { graphql } from '../../kit/gql/index.ts';

const gateway = gatewayForTests();

const PUBLISH_EDITION = graphql(`mutation PublishEditionUser { publishEdition { user { id name } } }`);
const publish = (token?: string) => gateway.graphql(PUBLISH_EDITION, {}, token);
const prisma = () => gateway.database.prisma;

/** The rows that say `userId` published an edition. */
async function publishRows(userId: number) {
  return {
    objectives: await prisma().objective.count({ where: { name: PUBLISH } }),
    milestones: await prisma().milestone.count({ where: { name: PUBLISH } }),
    userObjectives: await prisma().userObjective.count({ where: { userId, objective: { name: PUBLISH } } }),
    userMilestones: await prisma().userMilestone.count({ where: { userId, milestone: { name: PUBLISH } } }),
  };
}

const one = { objectives: 1, milestones: 1, userObjectives: 1, userMilestones: 1 };
const published = { milestones: [PUBLISH], objectives: [PUBLISH] };

describe('publishEdition', () => {
  it('answers the user and gives them the objective and the milestone, creating both records', async () => {
    expect(await publishRows(ids.owner)).toEqual({ objectives: 0, milestones: 0, userObjectives: 0, userMilestones: 0 });
    const answer = await publish(tokens.owner);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ publishEdition: { user: { id: String(ids.owner), name: names.owner } } });
    expect(await publishRows(ids.owner)).toEqual(one);
    expect(await viewerAchievements(gateway, tokens.owner)).toEqual(published);
    // Nobody else got anything.
    expect(await prisma().userObjective.count()).toBe(1);
    expect(await prisma().userMilestone.count()).toBe(1);
  });

  it('leaves exactly one of each when called twice', async () => {
    for (let call = 0; call < 2; call += 1) expect((await publish(tokens.owner)).errors).toBeUndefined();
    expect(await publishRows(ids.owner)).toEqual(one);
    expect(await viewerAchievements(gateway, tokens.owner)).toEqual(published);
  });

  it('leaves exactly one of each after 50 calls at once, over GraphQL and REST alike', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        index % 2 === 0
          ? publish(tokens.owner).then((a) => ({
              ok: a.errors === undefined && a.data?.publishEdition?.user?.id === String(ids.owner),
              detail: a,
            }))
          : gateway
              .rest('POST', '/api/v1/published_edition', { token: tokens.owner })
              .then((a) => ({ ok: a.status === 200 && JSON.stringify(a.body) === '{}', detail: a })),
      ),
    );
    for (const answer of answers) expect(answer.ok, JSON.stringify(answer.detail)).toBe(true);
    expect(await publishRows(ids.owner)).toEqual(one);
    expect(await prisma().objective.count()).toBe(1);
    expect(await prisma().milestone.count()).toBe(1);
    expect(await prisma().userObjective.count()).toBe(1);
    expect(await prisma().userMilestone.count()).toBe(1);
  });

  it('gives each of several users calling at once their own pair, sharing one objective and one milestone record', async () => {
    const users = [
      [tokens.owner, ids.owner],
      [tokens.coteacher, ids.coteacher],
      [tokens.otherTeacher, ids.otherTeacher],
      [tokens.student, ids.students[0]],
      [tokens.staff, ids.staff],
    ] as const;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => publish(users[index % users.length]![0])));
    for (const answer of answers) expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    for (const [, userId] of users) expect(await publishRows(userId)).toEqual(one);
    expect(await viewerAchievements(gateway, tokens.coteacher)).toEqual(published);
    expect(await prisma().userObjective.count()).toBe(users.length);
    expect(await prisma().userMilestone.count()).toBe(users.length);
  });

  it('reuses records that already exist and keeps the user’s other milestones', async () => {
    const objective = await prisma().objective.create({ data: { name: PUBLISH } });
    const milestone = await prisma().milestone.create({ data: { name: PUBLISH } });
    const complete = await prisma().milestone.create({ data: { name: COMPLETE } });
    await prisma().userObjective.create({ data: { userId: ids.otherTeacher, objectiveId: objective.id } });
    await prisma().userMilestone.create({ data: { userId: ids.otherTeacher, milestoneId: milestone.id } });
    await prisma().userMilestone.create({ data: { userId: ids.owner, milestoneId: complete.id } });

    expect((await publish(tokens.owner)).errors).toBeUndefined();
    expect(await publishRows(ids.owner)).toEqual(one);
    expect(await publishRows(ids.otherTeacher)).toEqual(one);
    expect((await viewerAchievements(gateway, tokens.owner)).milestones.sort()).toEqual([COMPLETE, PUBLISH]);
  });

  it('is open to any signed-in user: a student and staff too', async () => {
    for (const [token, userId] of [
      [tokens.student, ids.students[0]],
      [tokens.staff, ids.staff],
    ] as const) {
      const answer = await publish(token);
      expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
      expect(await publishRows(userId)).toEqual(one);
    }
    expect(await viewerAchievements(gateway, tokens.student)).toEqual(published);
  });

  it('is UNAUTHENTICATED anonymously and with a wrong token, and changes nothing', async () => {
    const before = await gateway.snapshot();
    for (const token of [undefined, 'wrong-token-0123456789abcdef']) {
      const answer = await publish(token);
      expect(errorCodes(answer)).toEqual(['UNAUTHENTICATED']);
      expect(answer.data?.publishEdition ?? null).toBeNull();
    }
    expect(await gateway.snapshot()).toBe(before);
  });
});
