// JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of the /api/v1 bodies, for the route table's docs
// (src/rest/routes.ts) and the OpenAPI document built from it (src/rest/openapi.ts).

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), as a plain object. */
export type JsonSchema = Record<string, unknown>;

export const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, type: [schema.type, 'null'] });
export const object = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
});
export const str: JsonSchema = { type: 'string' };
export const int: JsonSchema = { type: 'integer' };
export const successMeta = (message: JsonSchema = { type: 'null' }) =>
  object({ status: { const: 'success' }, message, errors: { type: 'null' } });
export const activitySchema = object({
  id: int,
  uid: str,
  name: str,
  description: str,
  flags: { type: 'array', items: str },
  data: { type: 'object' },
  supporting_info: nullable(str),
  follow_up_activity_id: nullable(int),
  classification: { oneOf: [object({ id: int, key: str, name: str }), { type: 'null' }] },
  anonymous_path: str,
  created_at: { type: 'string', format: 'date-time' },
  updated_at: { type: 'string', format: 'date-time' },
});
export const activityResponse = object({ activity: activitySchema, meta: successMeta() });
export const activityBodySchema = (required: string[]) =>
  object(
    {
      activity: object(
        {
          uid: { type: 'string', description: '22 URL-safe base64 characters are generated when left out (create)' },
          name: str,
          description: str,
          flags: { type: 'array', items: str, description: '["beta"] when left out or empty (create)' },
          data: { type: 'object' },
          supporting_info: nullable(str),
          follow_up_activity_id: nullable(int),
          classification_id: nullable(int),
        },
        required,
      ),
    },
    ['activity'],
  );
export const finishLessonBody = object(
  {
    follow_up: {
      type: ['boolean', 'string', 'null'],
      enum: [true, false, '', null],
      description: 'Assign the activity\'s follow-up activity to the classroom; `""`, null or absent: no follow-up',
    },
    edition_id: nullable(str),
    concept_results: {
      type: 'array',
      maxItems: 10_000,
      items: object(
        {
          activity_session_uid: { type: 'string', description: 'A visible session of this classroom activity' },
          concept_uid: str,
          question_type: str,
          metadata: {
            type: 'object',
            properties: { correct: int, attemptNumber: int, questionNumber: int, directions: str, prompt: str, answer: str },
            required: ['correct', 'attemptNumber', 'questionNumber'],
          },
          edition_id: nullable(str),
        },
        ['activity_session_uid', 'concept_uid', 'question_type', 'metadata'],
      ),
    },
  },
  [],
);
