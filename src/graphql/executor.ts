import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  execute,
  getVariableValues,
  GraphQLError,
  Kind,
  getOperationAST,
  printSchema,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';

// Operations run as JavaScript compiled for their document by graphql-jit, through Apollo's gateway
// interface (Apollo Server 5's one way to take another executor); graphql-js still runs where graphql-jit
// differs (below). Why, and Apollo's patch it needs: docs/decisions.md; what it saved: docs/performance.md.

/** Compiled operations kept: each holds generated code; compiling one costs about as much as validating it (docs/performance.md). */
const COMPILED_OPERATIONS = 100;

const byGraphqlJs = 'graphql-js' as const;
type Plan = CompiledQuery | typeof byGraphqlJs;

/**
 * True when a list or object literal of the document holds a variable (graphql-jit leaves it out of a custom
 * scalar's value), or an object literal a `__proto__` field (graphql-jit writes it into a JavaScript object
 * literal, where that key sets the prototype instead: the client's key would be lost).
 */
function hasLiteralJitGetsWrong(document: DocumentNode): boolean {
  let literalDepth = 0;
  let found = false;
  const literal = { enter: () => void (literalDepth += 1), leave: () => void (literalDepth -= 1) };
  visit(document, {
    ListValue: literal,
    ObjectValue: literal,
    ObjectField: (field) => void (found ||= field.name.value === '__proto__'),
    Variable: () => void (found ||= literalDepth > 0),
  });
  return found;
}

/**
 * True when the operation asks a subgraph for entities (`_entities`): their list's items fail one by one
 * (null, with the error at the item's path), which graphql-jit gets wrong (docs/decisions.md, Federation).
 */
function resolvesEntities(document: DocumentNode, operationName: string | undefined): boolean {
  const operation = getOperationAST(document, operationName);
  return (
    operation?.selectionSet.selections.some((selection) => selection.kind === Kind.FIELD && selection.name.value === '_entities') ?? false
  );
}

/** graphql-jit's function for the operation, else graphql-js (also for a document graphql-jit fails to compile). */
function planFor(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): Plan {
  if (hasLiteralJitGetsWrong(document) || resolvesEntities(document, operationName)) return byGraphqlJs;
  try {
    const compiled = compileQuery(schema, document, operationName, { disablingCapturingStackErrors: true });
    return isCompiledQuery(compiled) ? compiled : byGraphqlJs;
  } catch {
    return byGraphqlJs;
  }
}

/**
 * graphql-jit's errors as graphql-js makes them: Apollo reads `extensions`, which graphql-jit leaves
 * undefined unless the original error had some, and the formatter reads the original error (a database
 * outage is 503).
 */
function asGraphqlJsError(error: GraphQLError): GraphQLError {
  const copy = new GraphQLError(error.message, {
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: error.extensions,
  });
  (copy as { locations: GraphQLError['locations'] }).locations = error.locations;
  return copy;
}

/** The operations of a document, each under the key the executor looks it up by (its name; none when it is alone). */
function operationKeys(document: DocumentNode, queryHash: string): { key: string; name: string | undefined }[] {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const keys: { key: string; name: string | undefined }[] = operations.flatMap((operation) =>
    operation.name ? [{ key: `${queryHash}:${operation.name.value}`, name: operation.name.value }] : [],
  );
  if (operations.length === 1) keys.push({ key: `${queryHash}:`, name: undefined });
  return keys;
}

export type CompiledExecution = GatewayInterface & {
  /** Compiles a document's operations now, kept for as long as the server runs (the trusted documents). */
  keepCompiled(document: DocumentNode, queryHash: string): void;
};

export function compiledExecution(schema: GraphQLSchema): CompiledExecution {
  const plans = new LRUCache<string, Plan>({ max: COMPILED_OPERATIONS });
  const kept = new Map<string, Plan>();

  const executor: GatewayExecutor = async ({ document, operation, request, context, queryHash }) => {
    const variables = request.variables ?? {};
    const byJs = () =>
      execute({ schema, document, contextValue: context, variableValues: variables, operationName: request.operationName });
    // Apollo found no operation by that name: graphql-js says so in its words.
    if (!(operation as OperationDefinitionNode | undefined)) return byJs();
    const key = `${queryHash}:${request.operationName ?? ''}`;
    let plan = kept.get(key) ?? plans.get(key);
    if (!plan) plans.set(key, (plan = planFor(schema, document, request.operationName)));
    if (plan === byGraphqlJs) return byJs();

    // graphql-js coerces the variables, in its own words (graphql-jit dropped a non-null input field's
    // default), and graphql-jit is given its values: no input of the schema parses to other than what was sent.
    let coerced = variables;
    if (operation.variableDefinitions?.length) {
      const values = getVariableValues(schema, operation.variableDefinitions, variables, { maxErrors: 50 });
      if (values.errors) return { errors: values.errors };
      coerced = values.coerced;
    }
    const result: ExecutionResult = await plan.query(undefined, context, coerced);
    return result.errors ? { ...result, errors: result.errors.map(asGraphqlJsError) } : result;
  };

  return {
    keepCompiled(document, queryHash) {
      for (const { key, name } of operationKeys(document, queryHash)) kept.set(key, planFor(schema, document, name));
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => {};
    },
    load: async () => ({ executor }),
    stop: async () => {},
  };
}
