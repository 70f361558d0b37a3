import { expect } from 'vitest';
import type { Gateway } from '../kit/gateway.ts';
import { fixture, tokens } from '../kit/fixture.ts';

// Small helpers for the REST tests: what a legacy client sends and what it expects back.

export const NOT_FOUND_MESSAGE = 'The resource you were looking for does not exist';

/** The error envelope of SPEC §3. `message` defaults to "some non-empty text". */
export function errorBody(status: string, message: unknown = expect.stringMatching(/\S/), errors: unknown = null) {
  return { meta: { status, message, errors } };
}

export const notFoundBody = errorBody('not_found', NOT_FOUND_MESSAGE);
export const unauthorizedBody = errorBody('unauthorized');
export const forbiddenBody = errorBody('forbidden');
export const badRequestBody = errorBody('bad_request');

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
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { payload: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The fixture with extra records appended to some of its lists. */
export function fixtureWith(extra: Partial<Record<keyof ReturnType<typeof fixture>, unknown[]>>) {
  const data: Record<string, unknown[]> = fixture();
  for (const [list, records] of Object.entries(extra)) data[list] = [...(data[list] ?? []), ...(records ?? [])];
  return data;
}

export type ClassroomActivityState = {
  locked: boolean;
  pinned: boolean;
  completed: boolean;
  editionId: string | null;
  sessions: { uid: string; state: string; conceptResults: { concept: { uid: string }; questionType: string; metadata: Record<string, unknown> }[] }[];
};

/** What the owner sees of a classroom activity through GraphQL (null when unknown or hidden). */
export async function classroomActivityState(gateway: Gateway, id: number, token: string = tokens.owner): Promise<ClassroomActivityState | null> {
  const answer = await gateway.graphql(
    `query($id: ID!) { classroomActivity(id: $id) { locked pinned completed editionId
       sessions { uid state conceptResults { concept { uid } questionType metadata } } } }`,
    { id: String(id) },
    token,
  );
  expect(answer.errors).toBeUndefined();
  return answer.data.classroomActivity;
}

export const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
