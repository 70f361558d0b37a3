import { z } from 'zod';
import { payloadTooLarge } from '../../core/errors.ts';
import { jsonObject, nonEmptyString, optional, parseInput, storableText } from '../../core/validation.ts';

// finish_lesson's input (docs/contract.md, finish_lesson), in FinishLessonInput's shape, checked once here
// and turned into a FinishLessonCommand; finish-lesson.ts checks the uids against the database.

export const MAX_CONCEPT_RESULTS = 10_000;

export type ConceptResultCommand = {
  activitySessionUid: string;
  conceptUid: string;
  questionType: string;
  /** As stored: the known keys and any other keys the client sent. */
  metadata: Record<string, unknown>;
};

/** The uids one concept result names (either may be missing when the input failed validation). */
export type UidReference = { activitySessionUid?: string | undefined; conceptUid?: string | undefined };

export type FinishLessonCommand = {
  followUp: boolean;
  /** Given now: the input's own, else the first one on a concept result. */
  editionId: string | null;
  conceptResults: ConceptResultCommand[];
};

/** The metadata keys that are text on every face, wherever they are given (docs/contract.md, finish_lesson). */
const metadataText = {
  directions: optional(storableText),
  prompt: optional(storableText),
  answer: optional(storableText),
};

const metadataFields = {
  correct: z.number().int(),
  attemptNumber: z.number().int(),
  questionNumber: z.number().int(),
  ...metadataText,
};

const extraRules = jsonObject.pipe(z.looseObject(metadataText));

/**
 * GraphQL's `extra`: further keys, kept as given, except that `extra` may not smuggle another type under
 * a text key (REST's body puts those keys in the fields above, so both faces store the same). Checked by
 * zod, but the value kept is the client's own: zod's output would leave out a `__proto__` key.
 */
const extraMetadata = z.custom<Record<string, unknown>>().superRefine((value, ctx) => {
  const checked = extraRules.safeParse(value, { reportInput: true });
  for (const issue of checked.error?.issues ?? []) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
});

/** The keys kept from `extra`: all as given, but a text key given null is absent, as in the fields above. */
const keptExtra = (extra: Record<string, unknown> = {}) =>
  Object.fromEntries(Object.entries(extra).filter(([key, value]) => !(Object.hasOwn(metadataText, key) && value == null)));

function checkCount(conceptResults: unknown): void {
  if (Array.isArray(conceptResults) && conceptResults.length > MAX_CONCEPT_RESULTS) {
    throw payloadTooLarge(`A lesson may send at most ${MAX_CONCEPT_RESULTS} concept results; got ${conceptResults.length}`);
  }
}

function command(
  followUp: boolean | undefined,
  editionId: string | undefined,
  conceptResults: (ConceptResultCommand & { editionId?: string | undefined })[],
): FinishLessonCommand {
  return {
    followUp: followUp ?? false,
    editionId: editionId ?? conceptResults.find((result) => result.editionId !== undefined)?.editionId ?? null,
    conceptResults: conceptResults.map(({ editionId: _editionId, ...result }) => result),
  };
}

const finishLessonInput = z.object({
  followUp: optional(z.boolean()),
  editionId: optional(nonEmptyString),
  conceptResults: optional(
    z.array(
      z.object({
        activitySessionUid: nonEmptyString,
        conceptUid: nonEmptyString,
        questionType: nonEmptyString,
        editionId: optional(nonEmptyString),
        metadata: z
          .object({ ...metadataFields, extra: optional(extraMetadata) })
          .transform(({ extra, ...known }) => ({ ...keptExtra(extra), ...dropUndefined(known) })),
      }),
    ),
  ),
});

/** FinishLessonInput's shape, checked (413 past the limit, 422 naming every malformed field). */
export function parseFinishLessonInput(input: unknown): FinishLessonCommand {
  checkCount((input as { conceptResults?: unknown } | null | undefined)?.conceptResults);
  const parsed = parseInput(finishLessonInput, input);
  return command(parsed.followUp, parsed.editionId, parsed.conceptResults ?? []);
}

/** A string that is not blank, as sent (a space before or after is part of it), else undefined: how the uids read once validated. */
const uidOrUndefined = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/**
 * The uids each concept result names, read leniently from an input that failed validation, so that the
 * 422 can name the uids that name nothing as well as the malformed fields.
 */
export function uidReferences(input: unknown): UidReference[] {
  const results = (input as Record<string, unknown> | null | undefined)?.conceptResults;
  if (!Array.isArray(results) || results.length > MAX_CONCEPT_RESULTS) return [];
  return results.map((result) => {
    const fields = result && typeof result === 'object' ? (result as Record<string, unknown>) : {};
    return {
      activitySessionUid: uidOrUndefined(fields.activitySessionUid),
      conceptUid: uidOrUndefined(fields.conceptUid),
    };
  });
}

function dropUndefined<T extends Record<string, unknown>>(object: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}
