import { z } from 'zod';
import { addFieldError, badUserInput, quote, type FieldErrors } from './errors.ts';
import { isStorableText, jsonProblems, UNSTORABLE } from './json.ts';

// zod at the edge: shared field rules and the translation of zod issues into BAD_USER_INPUT fields.

/** An explicit null means the field is absent (docs/contract.md, Errors). */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === null ? undefined : value), schema.optional());

/** Text PostgreSQL can store. */
export const storableText = z.string().refine(isStorableText, UNSTORABLE);

/** Not blank; kept as sent (a uid with spaces is its own uid, not a trimmed other one). */
export const nonEmptyString = z
  .string()
  .refine((value) => value.trim() !== '', 'must not be blank')
  .refine(isStorableText, UNSTORABLE);

/** For a JSON value about to be stored: too deep, or holding keys and strings PostgreSQL cannot store (src/core/json.ts). */
export function refineStorableJson(value: unknown, ctx: z.RefinementCtx): void {
  for (const problem of jsonProblems(value)) {
    // A value too deep is not quoted: it is the value itself, and not worth printing.
    ctx.addIssue({
      code: 'custom',
      message: problem.message,
      path: problem.path,
      input: problem.input,
      params: { quote: problem.input !== undefined },
    });
  }
}
/** A JSON object a client sends, checked before it is stored. */
export const jsonObject = z.record(z.string(), z.unknown()).superRefine(refineStorableJson);

/** The largest id a row can have (PostgreSQL's int4). */
const MAX_ID = 2_147_483_647;

/** A numeric id as GraphQL (string) or REST (number) sends it. */
export const numericId = z
  .union([z.number().int(), z.string().regex(/^\d+$/, 'must be a numeric id').transform(Number)])
  .pipe(z.number().int().min(1, 'must be a positive id').max(MAX_ID, 'is too large'));

/** Parses a path parameter id; null when it cannot name a row. */
export function parseNumericId(value: string | number): number | null {
  // numericId's rule, without running the schema: this is on the hot path of every read (docs/performance.md).
  const id = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(id) && id >= 1 && id <= MAX_ID ? id : null;
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)),
    '',
  );
}

export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const input = (issue as { input?: unknown }).input;
    const unquoted = issue.code === 'custom' && issue.params?.quote === false;
    const message = unquoted
      ? issue.message
      : issue.code === 'invalid_type' && input === undefined
        ? 'is required'
        : `${issue.message}; got ${quote(input)}`;
    addFieldError(fields, formatPath(issue.path) || 'body', message);
  }
  return fields;
}

/** Parses or throws BAD_USER_INPUT naming every offending field. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success) throw badUserInput(zodFieldErrors(parsed.error));
  return parsed.data;
}
