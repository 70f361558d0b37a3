import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { JSONObjectResolver } from 'graphql-scalars';

// Every JSON value a client sends (finish_lesson metadata, activity data, JSONObject variables and literals)
// is checked here: how deep it nests, and whether PostgreSQL can store its strings. Client data may nest
// deeper than the call stack, so nothing here recurses over it: the walks keep their own stack.

/** Containers (objects, arrays) a JSON value may nest, itself included. */
export const MAX_JSON_DEPTH = 32;

export const TOO_DEEP = `must not nest deeper than ${MAX_JSON_DEPTH} levels`;
export const UNSTORABLE = 'must not contain a NUL character or an unpaired surrogate';

/** At most this many problems are named for one value, so that a huge bad value cannot make a huge answer. */
const MAX_PROBLEMS = 20;

/** PostgreSQL text and jsonb cannot hold a NUL character, and jsonb no unpaired UTF-16 surrogate. */
export const isStorableText = (value: string) =>
  !value.includes('\u0000') && !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);

export type JsonProblem = {
  /** Relative to the value checked; empty for the value itself (too deep). */
  path: (string | number)[];
  message: string;
  /** The offending string or key; absent when the value is too deep (it is not worth quoting). */
  input?: string;
};

type Frame = { container: Record<string, unknown> | unknown[]; keys: string[] | null; next: number; key: string | number };

const frame = (container: object, key: string | number): Frame => ({
  container: container as Frame['container'],
  keys: Array.isArray(container) ? null : Object.keys(container),
  next: 0,
  key,
});

/**
 * What is wrong with a JSON value about to be stored: nested deeper than MAX_JSON_DEPTH (one problem,
 * naming the value itself), else every key and string PostgreSQL cannot hold (named by their path).
 * `depthOnly`: only the depth (the GraphQL scalars' check; the input's schema names the strings).
 */
export function jsonProblems(value: unknown, { depthOnly = false, maxDepth = MAX_JSON_DEPTH } = {}): JsonProblem[] {
  if (typeof value === 'string') return depthOnly || isStorableText(value) ? [] : [{ path: [], message: UNSTORABLE, input: value }];
  if (!value || typeof value !== 'object') return [];
  if (maxDepth < 1) return [{ path: [], message: TOO_DEEP }];
  const problems: JsonProblem[] = [];
  const stack: Frame[] = [frame(value, '')];
  const pathTo = (key: string | number) => [...stack.slice(1).map((entry) => entry.key), key];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const top = stack[stack.length - 1]!;
    const size = top.keys ? top.keys.length : (top.container as unknown[]).length;
    if (top.next >= size) {
      stack.pop();
      continue;
    }
    const key = top.keys ? top.keys[top.next]! : top.next;
    top.next += 1;
    const child = (top.container as Record<string | number, unknown>)[key];
    if (!depthOnly) {
      if (typeof key === 'string' && !isStorableText(key)) problems.push({ path: pathTo(key), message: `key ${UNSTORABLE}`, input: key });
      if (typeof child === 'string' && !isStorableText(child)) problems.push({ path: pathTo(key), message: UNSTORABLE, input: child });
    }
    if (child && typeof child === 'object') {
      if (stack.length >= maxDepth) return [{ path: [], message: TOO_DEEP }];
      stack.push(frame(child, key));
    }
  }
  return problems;
}

const TOO_DEEP_MESSAGE = `A JSON value ${TOO_DEEP}`;
const tooDeep = () => new GraphQLError(TOO_DEEP_MESSAGE, { extensions: { code: 'BAD_USER_INPUT' } });

/** True for the error a scalar raises for a literal too deep (graphql-js reports it as a validation error). */
export const isJsonTooDeepError = (error: unknown) => (error as { message?: unknown } | undefined)?.message === TOO_DEEP_MESSAGE;

/** A GraphQL literal (`{a: [1, $b]}`) as a JSON value, without recursion, refusing what nests too deep. */
function valueFromLiteral(root: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  type Pending = { node: ValueNode; depth: number; assign: (value: unknown) => void };
  let result: unknown;
  const pending: Pending[] = [{ node: root, depth: 0, assign: (value) => (result = value) }];
  while (pending.length > 0) {
    const { node, depth, assign } = pending.pop()!;
    switch (node.kind) {
      case Kind.STRING:
      case Kind.ENUM:
        assign(node.value);
        break;
      case Kind.BOOLEAN:
        assign(node.value);
        break;
      case Kind.INT:
      case Kind.FLOAT:
        assign(Number(node.value));
        break;
      case Kind.NULL:
        assign(null);
        break;
      case Kind.VARIABLE: {
        const value = variables?.[node.name.value];
        if (jsonProblems(value, { depthOnly: true, maxDepth: MAX_JSON_DEPTH - depth }).length > 0) throw tooDeep();
        assign(value);
        break;
      }
      case Kind.LIST: {
        if (depth >= MAX_JSON_DEPTH) throw tooDeep();
        const list: unknown[] = new Array(node.values.length);
        assign(list);
        node.values.forEach((item, index) => pending.push({ node: item, depth: depth + 1, assign: (value) => (list[index] = value) }));
        break;
      }
      case Kind.OBJECT: {
        if (depth >= MAX_JSON_DEPTH) throw tooDeep();
        // No prototype, as graphql-scalars does: a `__proto__` key is then an ordinary key.
        const object = Object.create(null) as Record<string, unknown>;
        assign(object);
        for (const field of node.fields) {
          pending.push({ node: field.value, depth: depth + 1, assign: (value) => (object[field.name.value] = value) });
        }
        break;
      }
    }
  }
  return result;
}

const notAnObject = (value: unknown) =>
  new GraphQLError(`JSONObject cannot represent a non-object value: ${Array.isArray(value) ? 'a list' : typeof value}`);

/** `JSONObject`: a JSON object; variables and literals deeper than MAX_JSON_DEPTH are BAD_USER_INPUT. */
export const JSONObjectScalar = new GraphQLScalarType({
  ...JSONObjectResolver.toConfig(),
  parseValue: (value) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw notAnObject(value);
    if (jsonProblems(value, { depthOnly: true }).length > 0) throw tooDeep();
    return value;
  },
  parseLiteral: (node, variables) => {
    if (node.kind !== Kind.OBJECT && node.kind !== Kind.VARIABLE) throw notAnObject(node.kind === Kind.LIST ? [] : node.kind);
    const value = valueFromLiteral(node, variables);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw notAnObject(value);
    return value;
  },
});
