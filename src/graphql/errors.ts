import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { causeChain } from '../db/errors.ts';
import { isJsonTooDeepError } from './json.ts';

// Every error a client may see is raised here, once, with its `extensions.code`; the REST shim only
// translates codes to HTTP statuses (src/rest/errors.ts).

export const ErrorCode = {
  NOT_FOUND: 'NOT_FOUND',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  BAD_REQUEST: 'BAD_REQUEST',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  CONFLICT: 'CONFLICT',
  UNAVAILABLE: 'UNAVAILABLE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Field path (e.g. `concept_results[3].concept_uid`) → messages that quote the offending value. */
export type FieldErrors = Record<string, string[]>;

const fail = (code: ErrorCode, message: string, extensions: Record<string, unknown> = {}) =>
  new GraphQLError(message, { extensions: { code, ...extensions } });

export const NOT_FOUND_MESSAGE = 'The resource you were looking for does not exist';

export const notFound = () => fail(ErrorCode.NOT_FOUND, NOT_FOUND_MESSAGE);
export const unauthenticated = (message = 'Sign in with a valid access token') => fail(ErrorCode.UNAUTHENTICATED, message);
export const forbidden = (message = 'You are not allowed to do this') => fail(ErrorCode.FORBIDDEN, message);
export const badRequest = (message: string, extensions?: Record<string, unknown>) => fail(ErrorCode.BAD_REQUEST, message, extensions);
export const payloadTooLarge = (message: string) => fail(ErrorCode.PAYLOAD_TOO_LARGE, message);
export const badUserInput = (fields: FieldErrors, message = 'Some fields are invalid') =>
  fail(ErrorCode.BAD_USER_INPUT, message, { fields });

/** Adds `message` to `fields[path]`. */
export function addFieldError(fields: FieldErrors, path: string, message: string): void {
  const messages = (fields[path] ??= []);
  // Two rules may find the same fault (a metadata string is checked by its own rule and as JSON).
  if (!messages.includes(message)) messages.push(message);
}

/** Quotes a value for an error message, shortened so a huge input cannot make a huge answer. */
export function quote(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? typeof value);
  } catch {
    // Nested too deep for JSON.stringify's stack: not worth quoting.
    text = Array.isArray(value) ? '[...]' : '{...}';
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

// Codes our own code raises, plus the ones Apollo and graphql-js raise for a bad request: these reach
// the client as they are. Anything else is unexpected and is masked.
const clientCodes = new Set<string>([
  ...Object.values(ErrorCode),
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

/** Whether a client may see this code as it is: every code an answer can carry (the metrics bound their labels by it). */
export const isClientErrorCode = (code: string): boolean => clientCodes.has(code);

const unavailableCodes = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'ECONNREFUSED', 'ECONNRESET', '57P01', '57P03']);

/** True for an error that says the database cannot be reached, whatever layer raised it. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causeChain(error)) {
    const candidate = e as { code?: unknown; name?: unknown; message?: unknown; extensions?: { code?: unknown } };
    if (typeof candidate.code === 'string' && unavailableCodes.has(candidate.code)) return true;
    if (candidate.extensions?.code === ErrorCode.UNAVAILABLE) return true;
    if (candidate.name === 'PrismaClientInitializationError') return true;
    if (
      typeof candidate.message === 'string' &&
      /ECONNREFUSED|Connection terminated|connect ETIMEDOUT|DatabaseNotReachable|Can't reach database|timeout exceeded when trying to connect/i.test(
        candidate.message,
      )
    )
      return true;
  }
  return false;
}

export const UNAVAILABLE_MESSAGE = 'The service is unavailable, try again shortly';

/** For a failure outside a resolver (building the context): a database outage becomes UNAVAILABLE (503). */
export function rethrowUnavailable(error: unknown): never {
  if (isDatabaseUnavailable(error)) throw fail(ErrorCode.UNAVAILABLE, UNAVAILABLE_MESSAGE, { http: { status: 503 } });
  throw error;
}

export type ErrorLogger = (error: unknown) => void;

const TOO_MANY_VARIABLE_ERRORS = 'Too many errors processing variables, error limit reached';

// Read by shape: Apollo and graphql-tools load graphql-js's CommonJS build, this module its ESM build, so
// their GraphQLError classes differ and `instanceof` cannot tell.
const codeOf = (error: unknown): unknown => (error as { extensions?: { code?: unknown } } | undefined)?.extensions?.code;

/** Apollo's formatError: keeps client errors, masks everything else (and logs it). */
export function formatErrorFor(logUnexpected: ErrorLogger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    // A JSON literal too deep fails validation (src/graphql/json.ts); Apollo renames its code, the client's input is what is wrong.
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
    // drops the scalar's reason): still the client's input (a JSON value too deep, src/graphql/json.ts).
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
