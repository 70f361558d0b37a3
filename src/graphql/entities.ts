import { GraphQLError, isUnionType, Kind, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { ErrorCode } from '../core/errors.ts';

// `_entities` of the subgraph (docs/federation.md) answers a malformed representation as that item's
// BAD_USER_INPUT: @apollo/subgraph would throw for the whole list, and log the client's __typename as a 500.

/** Each entity type → its keys, each key the field names it needs (`@key(fields: "id")`). */
function entityKeys(schema: GraphQLSchema): Map<string, string[][]> {
  const keys = new Map<string, string[][]>();
  const union = schema.getType('_Entity');
  if (!isUnionType(union)) return keys;
  for (const type of union.getTypes()) {
    const directives = [type.astNode, ...type.extensionASTNodes].flatMap((node) => node?.directives ?? []);
    const fields = directives
      .filter((directive) => directive.name.value === 'key')
      .map((directive) => directive.arguments?.find((argument) => argument.name.value === 'fields')?.value)
      .map((value) => (value?.kind === Kind.STRING ? value.value.trim().split(/\s+/) : []));
    if (fields.some((names) => names.length === 0 || names.some((name) => !/^\w+$/.test(name))))
      throw new Error(`${type.name}: only keys of plain fields are checked (src/graphql/entities.ts)`);
    keys.set(type.name, fields);
  }
  return keys;
}

const isKeyValue = (value: unknown) => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** Whether a representation names an entity type and carries every field of one of its keys (an ID each). */
function wellFormed(representation: unknown, keys: Map<string, string[][]>): boolean {
  if (typeof representation !== 'object' || representation === null || Array.isArray(representation)) return false;
  const fields = representation as Record<string, unknown>;
  const typename = fields.__typename;
  const typeKeys = typeof typename === 'string' ? keys.get(typename) : undefined;
  return typeKeys?.some((key) => key.every((name) => Object.hasOwn(fields, name) && isKeyValue(fields[name]))) ?? false;
}

/** The error of one malformed item: it names the position and the entity types, never what the client sent. */
function malformed(index: number, keys: Map<string, string[][]>): GraphQLError {
  const expected = [...keys].map(([type, typeKeys]) => `${type} (${typeKeys.map((key) => key.join(' ')).join(' or ')})`).join(', ');
  return new GraphQLError(
    `representations[${index}] is not an entity representation: it must be an object whose __typename is one of ${expected}, with the fields of that key`,
    { extensions: { code: ErrorCode.BAD_USER_INPUT } },
  );
}

/**
 * Wraps the subgraph's `_entities` resolver: the well-formed representations go to it, in order; each
 * malformed one is answered null with its own error (graphql-js reports an Error list item at its path).
 */
export function checkEntityRepresentations(schema: GraphQLSchema): GraphQLSchema {
  const field = schema.getQueryType()?.getFields()._entities;
  const resolve = field?.resolve;
  if (!field || !resolve) return schema;
  const keys = entityKeys(schema);
  const checked: GraphQLFieldResolver<unknown, unknown, { representations: unknown[] }> = (source, args, context, info) => {
    const representations = args.representations;
    const valid = representations.map((representation) => wellFormed(representation, keys));
    if (valid.every(Boolean)) return resolve(source, args, context, info);
    const merge = (resolved: unknown[]) => {
      let next = 0;
      return valid.map((ok, index) => (ok ? resolved[next++] : malformed(index, keys)));
    };
    const resolved = resolve(source, { ...args, representations: representations.filter((_, index) => valid[index]) }, context, info);
    return Array.isArray(resolved) ? merge(resolved) : Promise.resolve(resolved as Promise<unknown[]>).then(merge);
  };
  field.resolve = checked as typeof resolve;
  return schema;
}
