import { GraphQLError } from 'graphql';

// Every error a client may see is raised through these, once, with its `extensions.code`: GraphQL answers
// it as it is, and HTTP translates the code to a status (src/http/errors.ts).

export const ErrorCode = {
  NOT_FOUND: 'NOT_FOUND',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  BAD_REQUEST: 'BAD_REQUEST',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'RATE_LIMITED',
  UNAVAILABLE: 'UNAVAILABLE',
  RESPONSE_TOO_LARGE: 'RESPONSE_TOO_LARGE',
  /** A subscription's `after` names events that retention deleted (docs/contract.md, Live lessons). */
  LESSON_EVENTS_EXPIRED: 'LESSON_EVENTS_EXPIRED',
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
/** More than a caller may have at once (HTTP 429). */
export const rateLimited = (message: string) => fail(ErrorCode.RATE_LIMITED, message);
export const payloadTooLarge = (message: string) => fail(ErrorCode.PAYLOAD_TOO_LARGE, message);
export const UNAVAILABLE_MESSAGE = 'The service is unavailable, try again shortly';
/** What a 503 asks the client to wait, in seconds: the database, the key set or the session webhook coming back, or a restart. */
export const RETRY_AFTER_SECONDS = '5';
/** The database (or another service a request needs) cannot be reached: HTTP 503 with Retry-After (Apollo reads `http`, never sends it). */
export const unavailable = () =>
  fail(ErrorCode.UNAVAILABLE, UNAVAILABLE_MESSAGE, { http: { status: 503, headers: new Map([['retry-after', RETRY_AFTER_SECONDS]]) } });
/** An answer that would be over RESPONSE_LIMIT (src/graphql/answer-size.ts): the client asks for less. */
export const responseTooLarge = (limitBytes: number) =>
  fail(
    ErrorCode.RESPONSE_TOO_LARGE,
    `The answer would be larger than ${limitBytes} bytes (the server's RESPONSE_LIMIT): ask for fewer items or fields`,
  );
export const lessonEventsExpired = () =>
  fail(
    ErrorCode.LESSON_EVENTS_EXPIRED,
    'Some events after this cursor are older than the retention and were deleted: read the state again and subscribe after its lessonEventCursor',
  );
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
