import { expect } from 'vitest';
import type { Gateway, RestAnswer } from './gateway.ts';
import { ids } from './fixture.ts';

// What a legacy /api/v1 client sends and expects back: the error envelope (docs/contract.md, Errors), its
// credentials, the lessons client's form bodies, and the paths of the classroom activity routes.

/** The `meta` of a successful activity answer. */
export const successMeta = { status: 'success', message: null, errors: null };

export const NOT_FOUND_MESSAGE = 'The resource you were looking for does not exist';

/** The error envelope. `message` defaults to "some non-empty text". */
export function errorBody(status: string, message: unknown = expect.stringMatching(/\S/), errors: unknown = null) {
  return { meta: { status, message, errors } };
}

export const notFoundBody = errorBody('not_found', NOT_FOUND_MESSAGE);
export const unauthorizedBody = errorBody('unauthorized');
export const forbiddenBody = errorBody('forbidden');
export const badRequestBody = errorBody('bad_request');
export const payloadTooLargeBody = errorBody('payload_too_large');

/** The 422 envelope naming exactly `errors` (field path → messages). */
export const invalidBody = (errors: Record<string, unknown>) => errorBody('invalid', expect.any(String), errors);

/** `Authorization: Basic` with the token as the user name and an empty password (old clients). */
export function basicAuth(user: string, password = ''): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

/** The lessons client's url-encoded form: one field `json` holding the JSON text. */
export function urlEncodedForm(fields: Record<string, string>): { payload: string; headers: Record<string, string> } {
  return { payload: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
}

/** The same as multipart/form-data. */
export function multipartForm(fields: Record<string, string>): { payload: string; headers: Record<string, string> } {
  const boundary = '----lessonsClientBoundary7MA4YWxkTrZu0gW';
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { payload: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export type ClassroomActivityRoute = 'student_names' | 'teacher_and_classroom_name' | 'unpin_and_lock_activity' | 'finish_lesson';

/** `/api/v1/classroom_activities/:id/<route>`. */
export const classroomActivityPath = (route: ClassroomActivityRoute, id: number | string = ids.classroomActivity) =>
  `/api/v1/classroom_activities/${id}/${route}`;

/** The finish_lesson route of a classroom activity (the shared fixture's lesson by default). */
export const finishLessonPath = (id: number | string = ids.classroomActivity) => classroomActivityPath('finish_lesson', id);

/** Sends a request that must be refused, and checks the database did not change. */
export async function rejectedRequest(gateway: Gateway, ...request: Parameters<Gateway['rest']>): Promise<RestAnswer> {
  const before = await gateway.snapshot();
  const answer = await gateway.rest(...request);
  expect(await gateway.snapshot(), `${request[0]} ${request[1]} changed the database (answered ${answer.status})`).toBe(before);
  return answer;
}
