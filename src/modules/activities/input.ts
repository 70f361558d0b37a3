import { z } from 'zod';
import { badUserInput, quote } from '../../graphql/errors.ts';
import { jsonObject, nonEmptyString, numericId, optional, parseInput, requireJsonObject } from '../../graphql/validation.ts';

// What an activity write may say, once for both faces: GraphQL's camelCase input and the legacy
// `{"activity": {...}}` body with snake_case keys.

const url = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

const fields = {
  uid: optional(nonEmptyString.max(255)),
  name: optional(nonEmptyString.max(255)),
  description: optional(z.string().max(10_000)),
  flags: optional(z.array(nonEmptyString.max(50)).max(20)),
  data: optional(jsonObject),
  supportingInfo: optional(url),
  followUpActivityId: optional(numericId),
  classificationId: optional(numericId),
};

const activityFields = z.object(fields);
const newActivityFields = activityFields.extend({ name: nonEmptyString.max(255) });

export type ActivityFields = z.output<typeof activityFields>;
export type NewActivityFields = z.output<typeof newActivityFields>;

export const parseNewActivity = (input: unknown): NewActivityFields => parseInput(newActivityFields, input);
export const parseActivityChanges = (input: unknown): ActivityFields => parseInput(activityFields, input);

const legacyKeys = {
  uid: 'uid',
  name: 'name',
  description: 'description',
  flags: 'flags',
  data: 'data',
  supporting_info: 'supportingInfo',
  follow_up_activity_id: 'followUpActivityId',
  classification_id: 'classificationId',
} as const;

const legacyActivity = (required: boolean) =>
  z
    .object(Object.fromEntries(Object.entries(legacyKeys).map(([legacy, key]) => [legacy, key === 'name' && required ? newActivityFields.shape.name : fields[key]])))
    .transform((legacy) => Object.fromEntries(Object.entries(legacy).map(([key, value]) => [legacyKeys[key as keyof typeof legacyKeys], value])));

/**
 * The legacy body: `{"activity": {...}}`, the object required (`{}`, `{"activity": null}` and
 * `{"activity": "x"}` are 422 naming `activity`). Other errors name the activity's own keys (`uid`, `supporting_info`).
 */
function legacyActivityOf(body: unknown): unknown {
  const activity = requireJsonObject(body).activity;
  if (activity === undefined || activity === null) throw badUserInput({ activity: ['is required: an object with the activity\'s fields'] });
  if (typeof activity !== 'object' || Array.isArray(activity)) throw badUserInput({ activity: [`must be an object; got ${quote(activity)}`] });
  return activity;
}

export const parseLegacyNewActivity = (body: unknown): NewActivityFields =>
  parseInput(legacyActivity(true), legacyActivityOf(body)) as NewActivityFields;

export const parseLegacyActivityChanges = (body: unknown): ActivityFields =>
  parseInput(legacyActivity(false), legacyActivityOf(body)) as ActivityFields;
