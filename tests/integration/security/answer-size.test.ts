// A small query cannot make a huge answer (docs/operations.md, The size of an answer): the cost limit counts a list field as its
// `first`, whether written, passed as a variable (then its largest page) or left to its default, and an
// answer over RESPONSE_LIMIT is not sent: `data: null` and one RESPONSE_TOO_LARGE error.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlLimits } from '../../../src/graphql/limits.ts';
import { startGateway, type Gateway, type GraphQLAnswer } from '../../kit/gateway.ts';

const LIMIT_BYTES = 64 * 1024;
let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({ RESPONSE_LIMIT: '64kb' });
});
afterAll(() => gateway?.close());

function expectCostRejected(answer: GraphQLAnswer) {
  expect(answer.status, JSON.stringify(answer)).toBe(400);
  expect(answer.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  expect(answer.errors?.[0]?.message).toMatch(/cost/i);
}

describe('the cost limit', () => {
  // Each alias: 100 × (2 + 1.5 × (2 + 1.5 × (2 + 1.5))) = 1287.5; four of them are over the limit.
  const aliases = (first: string) =>
    Array.from({ length: 4 }, (_, i) => `a${i}: activities(first: ${first}) { edges { node { data } } }`).join(' ');

  it('counts a written `first`', async () => {
    expect(4 * 1287.5).toBeGreaterThan(graphqlLimits.costLimit);
    expectCostRejected(await gateway.graphql(`{ ${aliases('100')} }`));
  });
  it('counts a `first` passed as a variable as the largest page, whatever the variable says', async () => {
    expectCostRejected(await gateway.graphql(`query ($n: Int) { ${aliases('$n')} }`, { n: 100 }));
    expectCostRejected(await gateway.graphql(`query ($n: Int) { ${aliases('$n')} }`, { n: 1 }));
  });
  it("counts a `first` left out as the argument's default (20)", async () => {
    // Each alias: 20 × (2 + 1.5 × (2 + 1.5 × (2 + 1.5 × 12))) = 1000.
    const node = 'id uid name description flags flag data supportingInfo followUpActivityId createdAt updatedAt __typename';
    const six = Array.from({ length: 6 }, (_, i) => `a${i}: activities { edges { node { ${node} } } }`).join(' ');
    const four = Array.from({ length: 4 }, (_, i) => `a${i}: activities { edges { node { ${node} } } }`).join(' ');
    expectCostRejected(await gateway.graphql(`{ ${six} }`));
    const accepted = await gateway.graphql(`{ ${four} }`);
    expect(accepted.errors).toBeUndefined();
  });
});

describe('RESPONSE_LIMIT', () => {
  beforeAll(async () => {
    // Each of the fixture's three activities gets 30 KB of data: the three together are over 64 KB.
    await gateway.database.prisma.$executeRawUnsafe(`UPDATE activities SET data = jsonb_build_object('text', repeat('x', 30000))`);
  });

  it('answers data null and one RESPONSE_TOO_LARGE error instead of an answer over the limit', async () => {
    const answer = await gateway.graphql('{ activities(first: 10) { edges { node { uid data } } } }');
    expect(answer.data).toBeNull();
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors![0]!.extensions?.code).toBe('RESPONSE_TOO_LARGE');
    expect(answer.errors![0]!.message).toMatch(/larger than 65536 bytes/);
    expect(JSON.stringify(answer).length).toBeLessThan(LIMIT_BYTES);
  });
  it('sends an answer under the limit', async () => {
    const one = await gateway.graphql('{ activities(first: 1) { edges { node { uid data } } } }');
    expect(one.errors).toBeUndefined();
    expect(one.data.activities.edges).toHaveLength(1);
    const uids = await gateway.graphql('{ activities(first: 10) { edges { node { uid } } } }');
    expect(uids.errors).toBeUndefined();
    expect(uids.data.activities.edges).toHaveLength(3);
  });
});
