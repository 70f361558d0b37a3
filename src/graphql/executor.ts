import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  execute,
  getVariableValues,
  GraphQLError,
  printSchema,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';

// Operations run as JavaScript compiled for their document by graphql-jit, instead of graphql-js walking
// the document for every field of every request: 17% less CPU per activity read, 25% per lesson (README
// Performance). Apollo's gateway interface is how Apollo Server 5 takes an executor other than graphql-js's;
// parsing, validation, the limits, plugins and error formatting stay Apollo's. (Apollo's request context
// for a gateway is patched, patches/@apollo+server+5.5.1.patch: as published it kept each request's
// objects alive until the next full collection, which cost as much as compiling saved.) graphql-js still runs:
//   - the variables' coercion, so a bad variable is refused in its words (and Apollo's BAD_USER_INPUT), and
//     graphql-jit is given the values it coerced (graphql-jit leaves out an input field's default when the
//     field is non-null: `conceptResults: [...]! = []`). Coercing them again changes nothing: no input of
//     the schema takes an enum or a scalar whose parsed value differs from what it was given;
//   - a document whose list or object literals hold variables: graphql-jit leaves such a variable out of
//     a custom scalar's value (`data: {a: $deep}` reached the resolver as `{a: {}}`);
//   - a request naming no operation of its document (graphql-js's own error).

/** Compiled operations kept: each holds 10–100 KB of generated code, and compiling one costs about as much as validating it. */
const COMPILED_OPERATIONS = 100;

const byGraphqlJs = 'graphql-js' as const;
type Plan = CompiledQuery | typeof byGraphqlJs;

/** True when a list or object literal of the document holds a variable. */
function hasVariableInLiteral(document: DocumentNode): boolean {
  let literalDepth = 0;
  let found = false;
  const literal = { enter: () => void (literalDepth += 1), leave: () => void (literalDepth -= 1) };
  visit(document, {
    ListValue: literal,
    ObjectValue: literal,
    Variable: () => void (found ||= literalDepth > 0),
  });
  return found;
}

/** graphql-jit's function for the operation, else graphql-js (also for a document graphql-jit fails to compile). */
function planFor(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): Plan {
  if (hasVariableInLiteral(document)) return byGraphqlJs;
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

export function compiledExecution(schema: GraphQLSchema): GatewayInterface {
  const plans = new LRUCache<string, Plan>({ max: COMPILED_OPERATIONS });

  const executor: GatewayExecutor = async ({ document, operation, request, context, queryHash }) => {
    const variables = request.variables ?? {};
    const byJs = () =>
      execute({ schema, document, contextValue: context, variableValues: variables, operationName: request.operationName });
    // Apollo found no operation by that name: graphql-js says so in its words.
    if (!(operation as OperationDefinitionNode | undefined)) return byJs();
    const key = `${queryHash}:${request.operationName ?? ''}`;
    let plan = plans.get(key);
    if (!plan) plans.set(key, (plan = planFor(schema, document, request.operationName)));
    if (plan === byGraphqlJs) return byJs();

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
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => {};
    },
    load: async () => ({ executor }),
    stop: async () => {},
  };
}
