import { ApolloArmor } from '@escape.tech/graphql-armor';
import {
  GraphQLError,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type ASTNode,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { PAGE_SIZE_LIMIT } from '../modules/activities/read.ts';

// The limits every operation meets, over HTTP, WebSocket and from the REST shim alike (SECURITY.md lists
// them): graphql-armor's validation rules and plugins, the cost rule below, and graphql-js's own token
// limit while parsing. The size of an answer is bounded as it is built (src/graphql/answer-size.ts).

export const graphqlLimits = {
  maxDepth: 10,
  maxAliases: 15,
  maxTokens: 2_000,
  maxDirectives: 20,
  costLimit: 5_000,
};

/** graphql-armor's plugins and validation rules for the gateway's limits (the WebSocket transport uses its rules too). */
export function armorFor() {
  const { plugins, validationRules } = new ApolloArmor({
    maxDepth: { n: graphqlLimits.maxDepth },
    maxAliases: { n: graphqlLimits.maxAliases },
    // graphql-armor's token limit re-parses the document in a plugin hook, which turns every syntax error
    // into a 500; graphql-js enforces the same limit while parsing (src/graphql/server.ts, `parseOptions`).
    maxTokens: { enabled: false },
    maxDirectives: { n: graphqlLimits.maxDirectives },
    // graphql-armor's cost counts only a `first` written in the document: costRule below counts them all.
    costLimit: { enabled: false },
    // Apollo's `hideSchemaDetailsFromClientErrors` (below) already removes "Did you mean" suggestions;
    // armor's would be a second plugin run on every request for the same effect.
    blockFieldSuggestion: { enabled: false },
  }).protect();
  return { plugins, validationRules: [...validationRules, costRule(graphqlLimits.costLimit)] };
}

/** graphql-armor's weights (its documented defaults), kept so that a cost means what it meant. */
const OBJECT_COST = 2;
const SCALAR_COST = 1;
const DEPTH_FACTOR = 1.5;

/**
 * How many items a list field's selection is counted for: its `first` (or `last`) when written; the largest
 * page the schema serves when a variable gives it (validation runs once per document, before any
 * variable is known); the argument's default when it is left out; 1 for any other field.
 */
function pageOf(node: FieldNode, field: GraphQLField<unknown, unknown> | undefined): number {
  const argument = node.arguments?.find(({ name }) => name.value === 'first' || name.value === 'last');
  if (argument?.value.kind === Kind.INT) return Math.max(Number.parseInt(argument.value.value, 10) || 1, 1);
  if (argument?.value.kind === Kind.VARIABLE) return PAGE_SIZE_LIMIT;
  if (argument) return 1;
  const byDefault = field?.args.find(({ name }) => name === 'first' || name === 'last')?.defaultValue;
  return typeof byDefault === 'number' ? Math.max(byDefault, 1) : 1;
}

/**
 * graphql-armor's cost (an object 2 plus 1.5 times its selection's, a scalar 1, times the page of a list)
 * with every `first` counted (pageOf). Fragments count as graphql-armor counts them; introspection is free.
 */
function costOf(context: ValidationContext, selectionSet: SelectionSetNode, parent: GraphQLCompositeType | undefined): number {
  const fragments = new Map<string, number>();
  const selections = (set: SelectionSetNode, type: GraphQLCompositeType | undefined): number =>
    set.selections.reduce((sum, selection) => sum + DEPTH_FACTOR * of(selection, type), 0);
  const of = (node: ASTNode, type: GraphQLCompositeType | undefined): number => {
    if (node.kind === Kind.FIELD) {
      if (node.name.value === '__schema') return 0;
      if (!node.selectionSet) return SCALAR_COST;
      const field = type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields()[node.name.value] : undefined;
      const child = field ? (getNamedType(field.type) as GraphQLCompositeType) : undefined;
      return pageOf(node, field) * (OBJECT_COST + selections(node.selectionSet, child));
    }
    if (node.kind === Kind.INLINE_FRAGMENT) {
      const condition = node.typeCondition ? (context.getSchema().getType(node.typeCondition.name.value) as GraphQLCompositeType) : type;
      return OBJECT_COST + selections(node.selectionSet, condition);
    }
    if (node.kind === Kind.FRAGMENT_SPREAD) {
      const name = node.name.value;
      if (!fragments.has(name)) {
        fragments.set(name, 0); // a cycle (refused by graphql-js's own rule) costs nothing more
        const fragment = context.getFragment(name);
        const condition = fragment ? (context.getSchema().getType(fragment.typeCondition.name.value) as GraphQLCompositeType) : undefined;
        fragments.set(name, fragment ? OBJECT_COST + selections(fragment.selectionSet, condition) : 0);
      }
      return SCALAR_COST + DEPTH_FACTOR * fragments.get(name)!;
    }
    return 0;
  };
  return selectionSet.selections.reduce((sum, selection) => sum + of(selection, parent), 0);
}

/** Refuses an operation whose cost (costOf) is over `maxCost`, before it runs. */
export function costRule(maxCost: number): ValidationRule {
  return (context) => ({
    OperationDefinition(operation) {
      const schema = context.getSchema();
      const root = schema.getRootType(operation.operation) ?? undefined;
      const cost = costOf(context, operation.selectionSet, root);
      if (cost > maxCost)
        context.reportError(new GraphQLError(`Query Cost limit of ${maxCost} exceeded, found ${cost}.`, { nodes: operation }));
    },
  });
}
