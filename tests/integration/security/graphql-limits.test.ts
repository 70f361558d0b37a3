// Every GraphQL limit (src/graphql/limits.ts `graphqlLimits`) rejects an operation just over it and
// accepts one just under (or exactly at) it; batched HTTP requests are refused. The limits are imported,
// not copied, so that changing one keeps these proofs honest.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lexer, parse, Source, TokenKind, type DocumentNode } from 'graphql';
import { graphqlLimits } from '../../../src/graphql/limits.ts';
import { PAGE_SIZE_LIMIT } from '../../../src/modules/activities/read.ts';
import { startGateway, type Gateway, type GraphQLAnswer } from '../../kit/gateway.ts';
import { tokens, uids } from '../../kit/fixture.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway();
  await gateway.reset();
});
afterAll(() => gateway?.close());

/** Accepted: no error at all, and data. */
function expectAccepted(answer: GraphQLAnswer, what: string) {
  expect(answer.errors, `${what}: ${JSON.stringify(answer.errors)}`).toBeUndefined();
  expect(answer.status).toBe(200);
  expect(answer.data).toBeTruthy();
}

/** Rejected before execution: a client error naming the limit, no data, never a 500. */
function expectRejected(answer: GraphQLAnswer, code: string, message: RegExp) {
  expect(answer.status, JSON.stringify(answer)).toBe(400);
  expect(answer.data ?? null).toBeNull();
  expect(answer.errors?.[0]?.extensions?.code, JSON.stringify(answer.errors)).toBe(code);
  expect(answer.errors?.[0]?.message).toMatch(message);
}

describe('depth', () => {
  // { activity { followUpActivity { ... { id } } } }: the activity field, n - 2 follow-ups and the leaf.
  const ofDepth = (depth: number) =>
    `{ activity(id: "${uids.lesson}") ${'{ followUpActivity '.repeat(depth - 2)}{ id }${' }'.repeat(depth - 2)} }`;

  it(`accepts depth ${graphqlLimits.maxDepth}`, async () => {
    expectAccepted(await gateway.graphql(ofDepth(graphqlLimits.maxDepth)), 'depth at the limit');
  });
  it(`rejects depth ${graphqlLimits.maxDepth + 1}`, async () => {
    expectRejected(await gateway.graphql(ofDepth(graphqlLimits.maxDepth + 1)), 'GRAPHQL_VALIDATION_FAILED', /depth/i);
  });
  it('counts depth through fragments too', async () => {
    const inner = `${'{ followUpActivity '.repeat(graphqlLimits.maxDepth - 2)}{ id }${' }'.repeat(graphqlLimits.maxDepth - 2)}`;
    const query = `query { activity(id: "${uids.lesson}") { ...deep } } fragment deep on Activity { followUpActivity ${inner} }`;
    expectRejected(await gateway.graphql(query), 'GRAPHQL_VALIDATION_FAILED', /depth/i);
  });
});

describe('aliases', () => {
  const withAliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: activity(id: "${uids.lesson}") { id }`).join(' ')} }`;

  it(`accepts ${graphqlLimits.maxAliases} aliases`, async () => {
    const answer = await gateway.graphql(withAliases(graphqlLimits.maxAliases));
    expectAccepted(answer, 'aliases at the limit');
    expect(Object.keys(answer.data)).toHaveLength(graphqlLimits.maxAliases);
  });
  it(`rejects ${graphqlLimits.maxAliases + 1} aliases`, async () => {
    expectRejected(await gateway.graphql(withAliases(graphqlLimits.maxAliases + 1)), 'GRAPHQL_VALIDATION_FAILED', /alias/i);
  });
});

describe('tokens (enforced by the parser)', () => {
  /** Tokens as graphql-js counts them (comments and commas are not tokens). */
  const countTokens = (source: string) => {
    const lexer = new Lexer(new Source(source));
    let count = 0;
    while (lexer.advance().kind !== TokenKind.EOF) count += 1;
    return count;
  };
  // A mutation whose JSON literal carries the tokens (a query of that many fields would trip graphql-js's
  // own overlapping-fields budget first). Its id names nothing, so it reaches the resolver and stops there.
  const ofTokens = (n: number) => {
    const frame = (items: number) =>
      `# ${'padding '.repeat(300)}\nmutation { updateActivity(id: "0", input: { data: { list: [${' 0'.repeat(items)} ] } }) { id } }`;
    const source = frame(n - countTokens(frame(0)));
    expect(countTokens(source)).toBe(n);
    return source;
  };

  it(`accepts ${graphqlLimits.maxTokens} tokens (parsed, validated and executed: NOT_FOUND from the resolver)`, async () => {
    const answer = await gateway.graphql(ofTokens(graphqlLimits.maxTokens), {}, tokens.owner);
    expect(answer.status).toBe(200);
    expect(answer.errors?.map((error) => error.extensions?.code)).toEqual(['NOT_FOUND']);
  });
  it(`rejects ${graphqlLimits.maxTokens + 1} tokens, and far more without parsing them all`, async () => {
    expectRejected(await gateway.graphql(ofTokens(graphqlLimits.maxTokens + 1), {}, tokens.owner), 'GRAPHQL_PARSE_FAILED', /tokens/i);
    const started = Date.now();
    expectRejected(await gateway.graphql(`{ ${'__typename '.repeat(200_000)}}`), 'GRAPHQL_PARSE_FAILED', /tokens/i);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('directives', () => {
  const withDirectives = (n: number) =>
    `{ ${Array.from({ length: n }, (_, i) => `__typename @include(if: ${i % 2 === 0})`).join(' ')} viewer { id } }`;

  it(`accepts ${graphqlLimits.maxDirectives} directives`, async () => {
    expectAccepted(await gateway.graphql(withDirectives(graphqlLimits.maxDirectives), {}, tokens.owner), 'directives at the limit');
  });
  it(`rejects ${graphqlLimits.maxDirectives + 1} directives`, async () => {
    expectRejected(
      await gateway.graphql(withDirectives(graphqlLimits.maxDirectives + 1), {}, tokens.owner),
      'GRAPHQL_VALIDATION_FAILED',
      /directive/i,
    );
  });
});

describe('cost', () => {
  // graphql-armor's cost (its documented defaults: object 2, scalar 1, depth factor 1.5, times `first`).
  function cost(document: DocumentNode): number {
    const of = (node: any): number => {
      if (!node.selectionSet) return 1;
      const first = node.arguments?.find((argument: any) => argument.name.value === 'first')?.value;
      const multiplier = first?.kind === 'IntValue' ? Math.max(Number(first.value), 1) : 1;
      return multiplier * (2 + 1.5 * node.selectionSet.selections.reduce((sum: number, child: any) => sum + of(child), 0));
    };
    const operation = document.definitions[0] as any;
    return operation.selectionSet.selections.reduce((sum: number, child: any) => sum + of(child), 0);
  }
  const scalars = [
    'id',
    'uid',
    'name',
    'description',
    'flags',
    'flag',
    'data',
    'supportingInfo',
    'followUpActivityId',
    'createdAt',
    'updatedAt',
    '__typename',
  ];
  const page = (first: number, fields: number) =>
    `{ activities(first: ${first}) { edges { node { ${scalars.slice(0, fields).join(' ')} } } } }`;

  // The most expensive page the resolver serves that stays within the limit, and the cheapest one past it.
  const candidates = Array.from({ length: PAGE_SIZE_LIMIT }, (_, i) => i + 1).flatMap((first) =>
    scalars.map((_, j) => ({ first, fields: j + 1 })),
  );
  const withCost = candidates.map((candidate) => ({ ...candidate, cost: cost(parse(page(candidate.first, candidate.fields))) }));
  const under = withCost.filter((c) => c.cost <= graphqlLimits.costLimit).sort((a, b) => b.cost - a.cost)[0]!;
  const over = [...withCost, ...scalars.map((_, j) => ({ first: PAGE_SIZE_LIMIT + 1, fields: j + 1 }))]
    .map((c) => ({ ...c, cost: cost(parse(page(c.first, c.fields))) }))
    .filter((c) => c.cost > graphqlLimits.costLimit)
    .sort((a, b) => a.cost - b.cost)[0]!;

  it(`accepts a query costing ${under.cost} (limit ${graphqlLimits.costLimit})`, async () => {
    expect(under.cost).toBeGreaterThan(graphqlLimits.costLimit * 0.95);
    expectAccepted(await gateway.graphql(page(under.first, under.fields)), 'cost under the limit');
  });
  it(`rejects a query costing ${over.cost}`, async () => {
    expect(over.cost).toBeLessThan(graphqlLimits.costLimit * 1.1);
    expectRejected(await gateway.graphql(page(over.first, over.fields)), 'GRAPHQL_VALIDATION_FAILED', /cost/i);
  });
});

describe('batched HTTP requests', () => {
  it('refuses a JSON array body to /graphql, running none of its operations', async () => {
    const before = await gateway.snapshot();
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.owner}` },
      payload: JSON.stringify([{ query: '{ viewer { id } }' }, { query: 'mutation { publishEdition { user { id } } }' }]),
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.body).not.toMatch(/"data"\s*:\s*\{/);
    expect(await gateway.snapshot()).toBe(before);
  });
  it('still answers a single operation', async () => {
    expectAccepted(await gateway.graphql('{ viewer { id } }', {}, tokens.owner), 'single');
  });
});
