import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { ErrorCode, UNAVAILABLE_MESSAGE } from '../core/errors.ts';
import { isJsonTooDeepError } from '../core/json.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';

// What a GraphQL client is shown of an error: the codes the gateway raises (src/core/errors.ts) and the
// request errors Apollo and graphql-js raise pass as they are; anything else is masked and logged.

const clientCodes = new Set<string>([
  ...Object.values(ErrorCode),
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_IN_LIST',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

/** Whether a client may see this code as it is: every code an answer can carry (the metrics bound their labels by it). */
export const isClientErrorCode = (code: string): boolean => clientCodes.has(code);

export type ErrorLogger = (error: unknown) => void;

const TOO_MANY_VARIABLE_ERRORS = 'Too many errors processing variables, error limit reached';

// Read by shape: Apollo and graphql-tools load graphql-js's CommonJS build, this module its ESM build, so
// their GraphQLError classes differ and `instanceof` cannot tell.
const codeOf = (error: unknown): unknown => (error as { extensions?: { code?: unknown } } | undefined)?.extensions?.code;

/** Apollo's formatError: keeps client errors, masks everything else (and logs it). */
export function formatErrorFor(logUnexpected: ErrorLogger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    // A JSON literal too deep fails validation (src/core/json.ts); Apollo renames its code, the client's input is what is wrong.
    if (formatted.extensions?.code === 'GRAPHQL_VALIDATION_FAILED' && isJsonTooDeepError((error as GraphQLError).originalError)) {
      return { ...formatted, extensions: { code: ErrorCode.BAD_USER_INPUT } };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && clientCodes.has(code) && code !== ErrorCode.INTERNAL_SERVER_ERROR) {
      const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, extensions };
    }
    const original = unwrapResolverError(error);
    // graphql-js gives up on a variable after 50 coercion errors with an error that carries no code: the
    // client's input is still what is wrong (a list of 60 strings where objects belong is not a 500).
    // A literal whose variables make it invalid is found only while executing (graphql-js's valueFromAST
    // drops the scalar's reason): still the client's input (a JSON value too deep, src/core/json.ts).
    const invalidArgument = /^Argument "\w+" has invalid value /.test(formatted.message) && codeOf(original) === undefined;
    if ((formatted.message.startsWith(TOO_MANY_VARIABLE_ERRORS) && formatted.path === undefined) || invalidArgument) {
      return { message: formatted.message, path: formatted.path, extensions: { code: ErrorCode.BAD_USER_INPUT } };
    }
    if (isDatabaseUnavailable(original)) {
      return { message: UNAVAILABLE_MESSAGE, path: formatted.path, extensions: { code: ErrorCode.UNAVAILABLE } };
    }
    logUnexpected(original);
    return { message: 'Internal server error', path: formatted.path, extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR } };
  };
}
