import { AsyncLocalStorage } from 'node:async_hooks';
import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { isEnumType, isScalarType, type GraphQLSchema } from 'graphql';
import { responseTooLarge } from '../core/errors.ts';

// RESPONSE_LIMIT: an answer is measured while it is built, at each value the executor puts in it (every
// scalar and enum of the schema serializes through here), and once over the limit every further value
// fails at once: the answer stops growing, and the client gets `data: null` and one RESPONSE_TOO_LARGE error.

type Budget = { left: number; over: boolean };
const budgets = new AsyncLocalStorage<Budget>();
/** What each value fails with once the answer is over its limit: never shown (the whole answer is replaced). */
const OVER = new Error('The answer is over RESPONSE_LIMIT');
/** A field's name, its quotes, colon and comma, roughly: what each value costs besides itself. */
const PER_VALUE = 8;
const counting = Symbol('answer bytes counted');

/** The size of `value` as JSON, roughly (escapes aside), measured only until it passes `limit`. */
function sizeOf(value: unknown, limit: number): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value !== 'object' || value === null) return 8;
  let size = 2;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) {
      size += 1 + sizeOf(item, limit - size);
      if (size > limit) return size;
    }
    return size;
  }
  for (const [key, item] of Object.entries(value)) {
    size += key.length + 4 + sizeOf(item, limit - size);
    if (size > limit) return size;
  }
  return size;
}

function spend(budget: Budget, value: unknown): void {
  if (budget.over) throw OVER;
  budget.left -= PER_VALUE + sizeOf(value, budget.left);
  if (budget.left < 0) {
    budget.over = true;
    throw OVER;
  }
}

/**
 * Every scalar and enum type of `schema` counts what it serializes against the answer being built, when one
 * is (withAnswerLimit); outside one (a subscription's event, graphql-js printing a default) nothing changes.
 * The built-in scalars are shared by every schema: each is wrapped once.
 */
export function countAnswerBytes(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(isScalarType(type) || isEnumType(type))) continue;
    const marked = type as unknown as Record<symbol, boolean>;
    if (marked[counting]) continue;
    marked[counting] = true;
    const serialize: (value: unknown) => unknown = type.serialize.bind(type);
    type.serialize = (value: unknown) => {
      const serialized = serialize(value);
      const budget = budgets.getStore();
      if (budget) spend(budget, serialized);
      return serialized;
    };
  }
}

/** `gateway` whose answers are at most `limitBytes` (countAnswerBytes must have been called on its schema). */
export function withAnswerLimit<G extends GatewayInterface>(gateway: G, limitBytes: number): G {
  return {
    ...gateway,
    load: async (options) => {
      const loaded = await gateway.load(options);
      const executor = loaded.executor;
      if (!executor) return loaded;
      const limited: GatewayExecutor = async (requestContext) => {
        const budget: Budget = { left: limitBytes, over: false };
        const result = await budgets.run(budget, () => executor(requestContext));
        return budget.over ? { data: null, errors: [responseTooLarge(limitBytes)] } : result;
      };
      return { ...loaded, executor: limited };
    },
  };
}
