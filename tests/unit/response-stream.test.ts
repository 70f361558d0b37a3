import { buildSchema, parse, subscribe as graphqlSubscribe, type ExecutionArgs } from 'graphql';
import { describe, expect, it } from 'vitest';
import { subscribe } from '../../src/graphql/subscriptions/response-stream.ts';

// The gateway's subscribe (src/graphql/subscriptions/response-stream.ts) answers as graphql-js's does: the
// same responses for the same events, the same refusal, and the source ended when the stream is.

const schema = buildSchema(`
  type Query { noop: String }
  type Subscription { tick(from: Int!): Tick }
  type Tick { n: Int! double: Int! broken: Int }
`);

/** A source of `count` events that records whether it was ended from outside. */
function source(count: number) {
  const state = { returned: false };
  let n = 0;
  const iterator: AsyncIterableIterator<{ tick: { n: number } }> = {
    next: async () => (n < count && !state.returned ? { value: { tick: { n: (n += 1) } }, done: false } : { value: undefined, done: true }),
    return: async () => {
      state.returned = true;
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return { iterator, state };
}

const argsFor = (events: AsyncIterableIterator<unknown>, query = 'subscription { tick(from: 1) { n double broken } }'): ExecutionArgs => ({
  schema,
  document: parse(query),
  rootValue: {
    tick: () => events,
  },
  fieldResolver: (parent, _args, _context, info) => {
    const value = (parent as Record<string, unknown>)[info.fieldName];
    if (info.fieldName === 'double') return ((parent as { n: number }).n ?? 0) * 2;
    if (info.fieldName === 'broken') throw new Error('broken on purpose');
    return value;
  },
});

async function all(stream: AsyncIterableIterator<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  for await (const value of stream) seen.push(JSON.parse(JSON.stringify(value)));
  return seen;
}

describe("the gateway's subscribe", () => {
  it('gives the responses graphql-js gives, errors in fields included', async () => {
    const ours = await subscribe(argsFor(source(3).iterator));
    const theirs = await graphqlSubscribe(argsFor(source(3).iterator));
    expect(Symbol.asyncIterator in ours).toBe(true);
    const expected = await all(theirs as AsyncIterableIterator<unknown>);
    expect(expected).toHaveLength(3);
    expect(await all(ours as AsyncIterableIterator<unknown>)).toEqual(expected);
  });

  it('refuses as graphql-js does when the subscription field fails', async () => {
    const args = {
      ...argsFor(source(1).iterator, 'subscription { tick(from: 1) { n } }'),
      rootValue: {
        tick: () => {
          throw new Error('no such lesson');
        },
      },
    };
    const ours = await subscribe(args);
    const theirs = await graphqlSubscribe(args);
    expect(Symbol.asyncIterator in ours).toBe(false);
    expect(ours).toMatchObject({ errors: [{ message: 'no such lesson' }] });
    expect(JSON.parse(JSON.stringify(ours))).toEqual(JSON.parse(JSON.stringify(theirs)));
  });

  it('ends its source when it is ended, and is done from then on', async () => {
    const { iterator, state } = source(10);
    const ours = (await subscribe(argsFor(iterator))) as AsyncIterableIterator<unknown>;
    expect((await ours.next()).done).toBe(false);
    expect(await ours.return!()).toEqual({ value: undefined, done: true });
    expect(state.returned).toBe(true);
    expect((await ours.next()).done).toBe(true);
  });
});
