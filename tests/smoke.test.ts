import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from './kit/gateway.ts';
import { ids, tokens, uids } from './kit/fixture.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());
beforeEach(() => gateway.reset());

describe('smoke', () => {
  it('reads an activity over REST and GraphQL', async () => {
    const rest = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`);
    expect(rest.status).toBe(200);
    expect(rest.body.activity.id).toBe(ids.lesson);
    const gql = await gateway.graphql('query($id: ID!) { activity(id: $id) { uid flag } }', { id: String(ids.lesson) });
    expect(gql.data).toEqual({ activity: { uid: uids.lesson, flag: 'production' } });
  });
  it('counts statements', async () => {
    const before = gateway.statements();
    await gateway.rest('GET', `/api/v1/classroom_activities/${ids.classroomActivity}/student_names`, { token: tokens.owner });
    expect(gateway.statements() - before).toBeGreaterThan(0);
  });
});
