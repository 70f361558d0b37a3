import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { badRequest, badUserInput, quote, type FieldErrors } from '../core/errors.ts';

// The /api/v1 bodies in the domain's words, going in: snake_case keys become the public inputs' camelCase,
// so one schema per input checks both faces; coming out, its errors' field paths go back into the body's
// snake_case. Only the keys a route knows are carried over; the others are ignored (docs/contract.md, REST routes).

type Body = Record<string, unknown>;

const isObject = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A body must be a JSON object (400 otherwise); an empty body counts as `{}`. */
export function requireJsonObject(body: unknown): Body {
  if (body === undefined || body === null) return {};
  if (!isObject(body)) throw badRequest('The body must be a JSON object');
  return body;
}

/** `{snake_key: value}` → `{camelKey: value}` for the keys `names` lists; absent keys stay absent. */
function renamed(source: Body, names: Record<string, string>): Body {
  const target: Body = {};
  for (const [from, to] of Object.entries(names)) if (from in source) target[to] = source[from];
  return target;
}

const activityNames = {
  uid: 'uid',
  name: 'name',
  description: 'description',
  flags: 'flags',
  data: 'data',
  supporting_info: 'supportingInfo',
  follow_up_activity_id: 'followUpActivityId',
  classification_id: 'classificationId',
};

/** `{"activity": {...}}` → CreateActivityInput / UpdateActivityInput's shape; the activity object is required. */
export function activityInputFromBody(body: unknown): Body {
  const activity = requireJsonObject(body).activity;
  if (activity === undefined || activity === null) throw badUserInput({ activity: ["is required: an object with the activity's fields"] });
  if (!isObject(activity)) throw badUserInput({ activity: [`must be an object; got ${quote(activity)}`] });
  return renamed(activity, activityNames);
}

const knownMetadata = ['correct', 'attemptNumber', 'questionNumber', 'directions', 'prompt', 'answer'];

/**
 * The body's metadata keeps any other keys as given: in ConceptResultMetadataInput they are `extra`. Built
 * by Object.fromEntries, which defines each key (assigning `__proto__` would set the prototype instead).
 */
function metadataInput(metadata: unknown): unknown {
  if (!isObject(metadata)) return metadata;
  const entries = Object.entries(metadata);
  const known = Object.fromEntries(entries.filter(([key]) => knownMetadata.includes(key)));
  const extra = Object.fromEntries(entries.filter(([key]) => !knownMetadata.includes(key)));
  return Object.keys(extra).length > 0 ? { ...known, extra } : known;
}

function conceptResultInput(result: unknown): unknown {
  if (!isObject(result)) return result;
  const input = renamed(result, {
    activity_session_uid: 'activitySessionUid',
    concept_uid: 'conceptUid',
    question_type: 'questionType',
    edition_id: 'editionId',
  });
  if ('metadata' in result) input.metadata = metadataInput(result.metadata);
  return input;
}

/**
 * A finish_lesson body → FinishLessonInput's shape (400 when the body is not a JSON object). The lessons
 * client sends `follow_up: ""` when the follow-up has no name: like null, that is no follow-up (docs/contract.md, finish_lesson).
 */
export function finishLessonInputFromBody(body: unknown): Body {
  const object = requireJsonObject(body);
  const input = renamed(object, { follow_up: 'followUp', edition_id: 'editionId' });
  if (input.followUp === '') delete input.followUp;
  const results = object.concept_results;
  if ('concept_results' in object) input.conceptResults = Array.isArray(results) ? results.map(conceptResultInput) : results;
  return input;
}

/**
 * `conceptResults[3].metadata.extra.note` → `concept_results[3].metadata.note`: a path in the body's words.
 * Metadata keys are the client's own (`attemptNumber` in both faces): only the path up to them is renamed.
 */
export function bodyPath(path: string): string {
  const metadata = /\.metadata(?=$|[.[])/.exec(path);
  const [fields, inside] = metadata ? [path.slice(0, metadata.index), path.slice(metadata.index)] : [path, ''];
  return fields.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) + inside.replace(/^\.metadata\.extra(?=$|[.[])/, '.metadata');
}

/** A body read for its mutation: the input it became, or why it could not become one. */
export type ReadBody = { input: unknown; refusal?: { message: string; extensions: Record<string, unknown> } };

/** How a route's body becomes the `$input` of its stored mutation, an input type of the public schema. */
export type BodyInput = { inputType: string; read: (body: unknown) => ReadBody };

/**
 * The mutation's `$input` when the body could not be translated: no object, so the operation refuses it (422)
 * once it has settled access (404, 401, 403), and the route answers the body's own refusal instead.
 */
const UNTRANSLATED = 'a body that could not be translated';

function reader(inputType: string, translate: (body: unknown) => unknown): BodyInput {
  return {
    inputType,
    read: (body) => {
      try {
        return { input: translate(body) };
      } catch (error) {
        if (!(error instanceof GraphQLError)) throw error;
        return { input: UNTRANSLATED, refusal: { message: error.message, extensions: error.extensions } };
      }
    },
  };
}

export const finishLessonInput = reader('FinishLessonInput', finishLessonInputFromBody);
export const createActivityInput = reader('CreateActivityInput', activityInputFromBody);
export const updateActivityInput = reader('UpdateActivityInput', activityInputFromBody);

/**
 * The operation's error in the body's words: an invalid input is the body's own refusal when it could not be
 * translated, else the same error with its field paths in the body's snake_case. Other errors pass as they are.
 */
export function inBodyWords(error: GraphQLFormattedError, read: ReadBody): GraphQLFormattedError {
  if (error.extensions?.code !== 'BAD_USER_INPUT') return error;
  if (read.refusal) return read.refusal;
  const fields = error.extensions.fields as FieldErrors | undefined;
  if (!fields) return error;
  const renamedFields: FieldErrors = {};
  for (const [path, messages] of Object.entries(fields)) (renamedFields[bodyPath(path)] ??= []).push(...messages);
  return { ...error, extensions: { ...error.extensions, fields: renamedFields } };
}
