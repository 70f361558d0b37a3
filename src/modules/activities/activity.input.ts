import { z } from 'zod';
import { jsonObject, nonEmptyString, numericId, optional, parseInput, storableText } from '../../core/validation.ts';

// What an activity write may say: CreateActivityInput and UpdateActivityInput, checked field by field.

const url = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

/** The longest uid an activity may have: every route that takes one in its path must reach it (src/http/server-options.ts). */
export const MAX_UID_LENGTH = 255;

const fields = {
  uid: optional(nonEmptyString.max(MAX_UID_LENGTH)),
  name: optional(nonEmptyString.max(255)),
  description: optional(storableText.max(10_000)),
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
