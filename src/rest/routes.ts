import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { createActivityInput, finishLessonInput, updateActivityInput, type BodyInput } from './bodies.ts';
import { graphql } from './gql/index.ts';
import type { LegacyActivityFragment as LegacyActivity } from './gql/graphql.ts';
import {
  activityBodySchema,
  activityResponse,
  finishLessonBody,
  nullable,
  object,
  str,
  successMeta,
  type JsonSchema,
} from './json-schemas.ts';

// The /api/v1 compatibility routes (docs/contract.md, REST routes): each one a stored operation of the public
// schema (typed by codegen: src/rest/gql/), its variables from the path and the body, a mapper from its data to
// the legacy body. No domain logic: checks, rules and errors all come from the modules' operations.

export type RestRequest = { params: Record<string, string> };

/** `null` means the root field answered null: the resource does not exist (404). */
export type RestResponse = { status?: number; body: unknown } | null;

/** What src/rest/openapi.ts needs to describe a route beyond its method, url and summary. */
export type RouteDoc = {
  /** Who may call it: anyone; anyone signed in; a teacher of the classroom; staff. */
  access: 'anyone' | 'signed-in' | 'teacher' | 'staff';
  /** What `:id` is, with an example that names a record of the demo data. */
  id?: { description: string; example: string };
  /** The JSON body, with an example that works on the demo data; `form`: also as a form with a `json` field. */
  body?: { schema: JsonSchema; example: unknown; form?: boolean };
  /** The 200 body. */
  response: JsonSchema;
  /** Error statuses besides 401 (a wrong token), 429, 500 and 503, which every route can answer. */
  errors: (400 | 403 | 404 | 409 | 413 | 422)[];
};

export type RestRoute = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  summary: string;
  /** The stored operation's text. */
  operation: string;
  variables?: (request: RestRequest) => Record<string, unknown>;
  /** A route that reads a body: how it becomes the operation's `$input` (src/rest/bodies.ts). */
  input?: BodyInput;
  respond: (data: unknown) => RestResponse;
  doc: RouteDoc;
};

/** Whether a document declares `$input` (a document without variables is typed `{ [key: string]: never }`). */
type TakesInput<Variables> = string extends keyof Variables ? false : 'input' extends keyof Variables ? true : false;

/** A route whose variables and mapper the type-check holds to its document; `$input` comes from the body. */
type TypedRoute<Result, Variables> = Omit<RestRoute, 'operation' | 'variables' | 'input' | 'respond'> & {
  /** A `graphql(`...`)` document of src/rest/gql/: its text, typed. */
  operation: DocumentTypeDecoration<Result, Variables> & { toString(): string };
  variables?: (request: RestRequest) => Omit<Variables, 'input'>;
  respond: (data: Result) => RestResponse;
} & (TakesInput<Variables> extends true ? { input: BodyInput } : { input?: never });

const route = <Result, Variables>({ operation, respond, ...rest }: TypedRoute<Result, Variables>): RestRoute => ({
  ...rest,
  operation: operation.toString().trim(),
  // The document's type is its answer's (codegen.ts), which Apollo gives back as it is.
  respond: respond as (data: unknown) => RestResponse,
});

graphql(`
  fragment LegacyActivity on Activity {
    id
    uid
    name
    description
    flags
    data
    supportingInfo
    followUpActivityId
    classification {
      id
      key
      name
    }
    createdAt
    updatedAt
  }
`);

const success = (message: string | null = null) => ({ status: 'success', message, errors: null });

/** The activity as the lessons client reads it: snake_case, numeric ids. */
function legacyActivity(activity: LegacyActivity) {
  return {
    id: Number(activity.id),
    uid: activity.uid,
    name: activity.name,
    description: activity.description,
    flags: activity.flags,
    data: activity.data,
    supporting_info: activity.supportingInfo,
    follow_up_activity_id: activity.followUpActivityId === null ? null : Number(activity.followUpActivityId),
    classification: activity.classification && { ...activity.classification, id: Number(activity.classification.id) },
    anonymous_path: `/activity_sessions/anonymous?activity_id=${activity.id}`,
    created_at: activity.createdAt,
    updated_at: activity.updatedAt,
  };
}

const activityBody = (activity: LegacyActivity | null): RestResponse =>
  activity && { body: { activity: legacyActivity(activity), meta: success() } };

// `:id` as the documents describe it, with an example from the demo data (src/demo/seed.ts).
const activityId = { description: "The activity's uid, else its numeric id", example: '-KsL6d9-ij4oM7qMUZFm' };
const classroomActivityId = { description: "The classroom activity's numeric id", example: '100' };

// Only routes whose url has `:id` read it, and Fastify routes a request there only with one.
const id = ({ params }: RestRequest) => ({ id: params.id! });

export const routes: RestRoute[] = [
  route({
    method: 'GET',
    url: '/activities/uids_and_flags',
    summary: "Every activity's uid and first flag",
    operation: graphql(`
      query UidsAndFlags {
        activityFlags {
          uid
          flag
        }
      }
    `),
    respond: (data) => ({
      body: Object.fromEntries(data.activityFlags.map(({ uid, flag }) => [uid, { flag }])),
    }),
    doc: {
      access: 'anyone',
      response: { type: 'object', additionalProperties: object({ flag: nullable(str) }), description: 'uid → its first flag' },
      errors: [],
    },
  }),
  route({
    method: 'GET',
    url: '/activities/:id',
    summary: 'An activity, by uid or numeric id',
    operation: graphql(`
      query Activity($id: ID!) {
        activity(id: $id) {
          ...LegacyActivity
        }
      }
    `),
    variables: id,
    respond: (data) => activityBody(data.activity),
    doc: { access: 'anyone', id: activityId, response: activityResponse, errors: [404] },
  }),
  route({
    method: 'GET',
    url: '/activities/:id/follow_up_activity_name_and_supporting_info',
    summary: "The follow-up activity's name and the supporting-information link",
    operation: graphql(`
      query FollowUpNameAndSupportingInfo($id: ID!) {
        activity(id: $id) {
          supportingInfo
          followUpActivity {
            name
          }
        }
      }
    `),
    variables: id,
    respond: (data) =>
      data.activity && {
        body: { follow_up_activity_name: data.activity.followUpActivity?.name ?? null, supporting_info: data.activity.supportingInfo },
      },
    doc: {
      access: 'anyone',
      id: activityId,
      response: object({ follow_up_activity_name: nullable(str), supporting_info: nullable(str) }),
      errors: [404],
    },
  }),
  route({
    method: 'GET',
    url: '/activities/:id/supporting_info',
    summary: 'The supporting-information link',
    operation: graphql(`
      query SupportingInfo($id: ID!) {
        activity(id: $id) {
          supportingInfo
        }
      }
    `),
    variables: id,
    respond: (data) => data.activity && { body: { supporting_info: data.activity.supportingInfo } },
    doc: { access: 'anyone', id: activityId, response: object({ supporting_info: nullable(str) }), errors: [404] },
  }),
  route({
    method: 'POST',
    url: '/activities',
    summary: 'Create an activity (staff)',
    operation: graphql(`
      mutation CreateActivity($input: CreateActivityInput!) {
        activity: createActivity(input: $input) {
          ...LegacyActivity
        }
      }
    `),
    input: createActivityInput,
    respond: (data) => activityBody(data.activity),
    doc: {
      access: 'staff',
      body: {
        schema: activityBodySchema(['name']),
        example: {
          activity: { name: 'Subject-Verb Agreement', description: 'A new lesson.', flags: ['alpha'], data: {}, classification_id: 6 },
        },
      },
      response: activityResponse,
      errors: [400, 403, 413, 422],
    },
  }),
  route({
    method: 'PUT',
    url: '/activities/:id',
    summary: 'Update an activity (staff)',
    operation: graphql(`
      mutation UpdateActivity($id: ID!, $input: UpdateActivityInput!) {
        activity: updateActivity(id: $id, input: $input) {
          ...LegacyActivity
        }
      }
    `),
    variables: id,
    input: updateActivityInput,
    respond: (data) => activityBody(data.activity),
    doc: {
      access: 'staff',
      id: activityId,
      body: { schema: activityBodySchema([]), example: { activity: { description: 'Build sentences whose parts match (updated).' } } },
      response: activityResponse,
      errors: [400, 403, 404, 413, 422],
    },
  }),
  route({
    method: 'DELETE',
    url: '/activities/:id',
    summary: 'Delete an activity (staff)',
    operation: graphql(`
      mutation DeleteActivity($id: ID!) {
        deleteActivity(id: $id) {
          id
        }
      }
    `),
    variables: id,
    respond: () => ({ body: { meta: success('Activity Destroy Successful') } }),
    doc: {
      access: 'staff',
      id: activityId,
      response: object({ meta: successMeta({ const: 'Activity Destroy Successful' }) }),
      errors: [403, 404],
    },
  }),
  route({
    method: 'POST',
    url: '/published_edition',
    summary: "Record the signed-in user's published customized lesson",
    operation: graphql(`
      mutation PublishEdition {
        publishEdition {
          user {
            id
          }
        }
      }
    `),
    respond: () => ({ body: {} }),
    doc: { access: 'signed-in', response: { type: 'object', maxProperties: 0 }, errors: [] },
  }),
  route({
    method: 'GET',
    url: '/classroom_activities/:id/student_names',
    summary: 'Session uid → student name, for the visible sessions (teacher)',
    operation: graphql(`
      query StudentNames($id: ID!) {
        classroomActivity(id: $id) {
          studentNames {
            activitySessionUid
            name
          }
        }
      }
    `),
    variables: id,
    respond: (data) =>
      data.classroomActivity && {
        body: Object.fromEntries(data.classroomActivity.studentNames.map(({ activitySessionUid, name }) => [activitySessionUid, name])),
      },
    doc: {
      access: 'teacher',
      id: classroomActivityId,
      response: { type: 'object', additionalProperties: str, description: 'session uid → student name' },
      errors: [403, 404],
    },
  }),
  route({
    method: 'GET',
    url: '/classroom_activities/:id/teacher_and_classroom_name',
    summary: "The classroom owner's name and the classroom's name (teacher)",
    operation: graphql(`
      query TeacherAndClassroomName($id: ID!) {
        classroomActivity(id: $id) {
          classroom {
            name
            teacher {
              name
            }
          }
        }
      }
    `),
    variables: id,
    respond: (data) =>
      data.classroomActivity && {
        body: { teacher: data.classroomActivity.classroom.teacher?.name ?? null, classroom: data.classroomActivity.classroom.name },
      },
    doc: { access: 'teacher', id: classroomActivityId, response: object({ teacher: nullable(str), classroom: str }), errors: [403, 404] },
  }),
  route({
    method: 'PUT',
    url: '/classroom_activities/:id/unpin_and_lock_activity',
    summary: 'Unpin and lock; answers the new pinned value (teacher)',
    operation: graphql(`
      mutation UnpinAndLock($id: ID!) {
        unpinAndLock(id: $id) {
          pinned
        }
      }
    `),
    variables: id,
    respond: (data) => ({ body: data.unpinAndLock.pinned }),
    doc: { access: 'teacher', id: classroomActivityId, response: { const: false }, errors: [403, 404] },
  }),
  route({
    method: 'PUT',
    url: '/classroom_activities/:id/finish_lesson',
    summary: 'End the lesson (teacher); JSON or a form with a `json` field',
    operation: graphql(`
      mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {
        finishLesson(id: $id, input: $input) {
          followUpUrl
        }
      }
    `),
    variables: id,
    input: finishLessonInput,
    respond: (data) => ({ body: { follow_up_url: data.finishLesson.followUpUrl } }),
    doc: {
      access: 'teacher',
      id: classroomActivityId,
      body: {
        schema: finishLessonBody,
        form: true,
        example: {
          follow_up: true,
          concept_results: [
            {
              activity_session_uid: 'CzdnkJa649c3eZ-Ag8udAQ',
              concept_uid: 'X37oyfiNxSphA34npOb-Ig',
              question_type: 'lessons-slide',
              metadata: { correct: 1, attemptNumber: 1, questionNumber: 1 },
            },
          ],
        },
      },
      response: object({ follow_up_url: { type: 'string', format: 'uri' } }),
      errors: [400, 403, 404, 409, 413, 422],
    },
  }),
];
