import { describe, expect, it } from 'vitest';
import { gatewayForTests, type Gateway } from '../../kit/gateway.ts';
import { tokens } from '../../kit/fixture.ts';
import { viewerAchievements } from '../../kit/graphql.ts';
import { PUBLISH_CUSTOMIZED_LESSON as PUBLISH } from '../../kit/finish-lesson.ts';
import { basicAuth, unauthorizedBody } from '../../kit/rest.ts';

// POST /api/v1/published_edition (docs/contract.md, REST routes): publishEdition for the signed-in user,
// answered {} in every case, old clients' credentials, and 401 in the envelope. What publishing does, and
// that it does it once however often it is called: tests/integration/milestones/publish-edition.test.ts.

const gateway = gatewayForTests();

const publish = (options: Parameters<Gateway['rest']>[2] = {}) => gateway.rest('POST', '/api/v1/published_edition', options);

describe('POST /api/v1/published_edition', () => {
  it("answers {} and gives the teacher the 'Publish Customized Lesson' objective and milestone", async () => {
    expect(await viewerAchievements(gateway, tokens.owner)).toEqual({ milestones: [], objectives: [] });

    const answer = await publish({ token: tokens.owner });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
    expect(await viewerAchievements(gateway, tokens.owner)).toEqual({ milestones: [PUBLISH], objectives: [PUBLISH] });
  });

  it('answers {} again when called a second time', async () => {
    await publish({ token: tokens.owner });
    const again = await publish({ token: tokens.owner });

    expect(again.status).toBe(200);
    expect(again.body).toEqual({});
  });

  it('accepts HTTP Basic with the token as the user name (old clients)', async () => {
    const answer = await publish({ headers: basicAuth(tokens.coteacher) });

    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({});
    expect(await viewerAchievements(gateway, tokens.coteacher)).toEqual({ milestones: [PUBLISH], objectives: [PUBLISH] });
  });

  it('ignores a body the client sends anyway', async () => {
    const answer = await publish({ token: tokens.owner, body: { edition_id: 'ed-1', anything: [1, 2] } });

    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({});
    expect(await viewerAchievements(gateway, tokens.owner)).toEqual({ milestones: [PUBLISH], objectives: [PUBLISH] });
  });

  it('answers 401 in the envelope to no credentials, a wrong token and a bare Bearer, one by one and 50 at once, and changes nothing', async () => {
    const before = await gateway.snapshot();
    for (const options of [{}, { token: 'not-a-real-token-0123456789' }, { headers: { authorization: 'Bearer' } }]) {
      const answer = await publish(options);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(unauthorizedBody);
    }
    const answers = await Promise.all(Array.from({ length: 50 }, () => publish()));
    for (const answer of answers) expect(answer.status).toBe(401);
    expect(await gateway.snapshot()).toBe(before);
  });
});
