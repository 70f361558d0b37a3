import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../kit/gateway.ts';
import { ids, tokens } from '../kit/fixture.ts';
import { basicAuth, unauthorizedBody } from './helpers.ts';

// POST /api/v1/published_edition: any signed-in user; the objective and milestone 'Publish Customized
// Lesson' exist once, and the user holds each once, however often the client calls.

const PUBLISH = 'Publish Customized Lesson';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway?.close());
beforeEach(() => gateway.reset());

/** What the user sees of their own milestones and objectives through GraphQL. */
async function achievements(token: string) {
  const answer = await gateway.graphql('{ viewer { milestones { name } objectives { name } } }', {}, token);
  expect(answer.errors).toBeUndefined();
  return answer.data.viewer;
}

/** Rows in the database, counted for one name. */
async function counts(name = PUBLISH) {
  const prisma = gateway.database.prisma;
  return {
    milestones: await prisma.milestone.count({ where: { name } }),
    objectives: await prisma.objective.count({ where: { name } }),
    userMilestones: await prisma.userMilestone.count({ where: { milestone: { name } } }),
    userObjectives: await prisma.userObjective.count({ where: { objective: { name } } }),
  };
}

describe('POST /api/v1/published_edition', () => {
  it("answers {} and gives the teacher the 'Publish Customized Lesson' objective and milestone", async () => {
    expect(await achievements(tokens.owner)).toEqual({ milestones: [], objectives: [] });

    const answer = await gateway.rest('POST', '/api/v1/published_edition', { token: tokens.owner });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
    expect(await achievements(tokens.owner)).toEqual({ milestones: [{ name: PUBLISH }], objectives: [{ name: PUBLISH }] });
    expect(await counts()).toEqual({ milestones: 1, objectives: 1, userMilestones: 1, userObjectives: 1 });
  });

  it('leaves exactly one of each when called twice', async () => {
    const first = await gateway.rest('POST', '/api/v1/published_edition', { token: tokens.owner });
    const second = await gateway.rest('POST', '/api/v1/published_edition', { token: tokens.owner });

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual({});
    expect(await achievements(tokens.owner)).toEqual({ milestones: [{ name: PUBLISH }], objectives: [{ name: PUBLISH }] });
    expect(await counts()).toEqual({ milestones: 1, objectives: 1, userMilestones: 1, userObjectives: 1 });
  });

  it('leaves exactly one of each when called 50 times at once', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => gateway.rest('POST', '/api/v1/published_edition', { token: tokens.owner })));

    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    expect(answers.every((answer) => JSON.stringify(answer.body) === '{}')).toBe(true);
    expect(await counts()).toEqual({ milestones: 1, objectives: 1, userMilestones: 1, userObjectives: 1 });
  });

  it('reuses the objective and milestone records for a second user', async () => {
    await gateway.rest('POST', '/api/v1/published_edition', { token: tokens.owner });
    await gateway.rest('POST', '/api/v1/published_edition', { token: tokens.coteacher });

    expect(await achievements(tokens.coteacher)).toEqual({ milestones: [{ name: PUBLISH }], objectives: [{ name: PUBLISH }] });
    expect(await counts()).toEqual({ milestones: 1, objectives: 1, userMilestones: 2, userObjectives: 2 });
  });

  it('works for any signed-in user, a student included', async () => {
    const answer = await gateway.rest('POST', '/api/v1/published_edition', { token: tokens.student });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
    expect(await achievements(tokens.student)).toEqual({ milestones: [{ name: PUBLISH }], objectives: [{ name: PUBLISH }] });
  });

  it('accepts HTTP Basic with the token as the user name', async () => {
    const answer = await gateway.rest('POST', '/api/v1/published_edition', { headers: basicAuth(tokens.owner) });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
  });

  it('ignores a body the client sends anyway', async () => {
    const answer = await gateway.rest('POST', '/api/v1/published_edition', { token: tokens.owner, body: { edition_id: 'ed-1' } });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
    expect(await counts()).toEqual({ milestones: 1, objectives: 1, userMilestones: 1, userObjectives: 1 });
  });

  it('keeps milestones the user already has', async () => {
    await gateway.database.prisma.milestone.create({ data: { name: 'Complete Customized Lesson', users: { create: { userId: ids.owner } } } });

    await gateway.rest('POST', '/api/v1/published_edition', { token: tokens.owner });

    const { milestones } = await achievements(tokens.owner);
    expect(milestones.map((m: { name: string }) => m.name).sort()).toEqual(['Complete Customized Lesson', PUBLISH]);
  });

  it('answers 401 to an anonymous caller, and changes nothing', async () => {
    const before = await gateway.snapshot();

    const answer = await gateway.rest('POST', '/api/v1/published_edition');

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
    expect(await gateway.snapshot()).toBe(before);
  });

  it('answers 401 to a wrong token, and changes nothing', async () => {
    const before = await gateway.snapshot();

    const answer = await gateway.rest('POST', '/api/v1/published_edition', { token: 'not-a-real-token-0123456789' });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
    expect(await gateway.snapshot()).toBe(before);
  });
});
