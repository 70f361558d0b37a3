import { describe, expect, it } from 'vitest';
import { routes } from '../../../src/rest/routes.ts';
import { tokens } from '../../kit/fixture.ts';
import { gatewayForTests } from '../../kit/gateway.ts';
import { graphql } from '../../kit/gql/index.ts';

// Ids in the path that no row can have: a NUL character (PostgreSQL cannot even hold it), numbers out of
// range, and percent-encoding that is not UTF-8. Each is a clear client error in the REST envelope on
// every route, never a 500, and changes nothing.

const gateway = gatewayForTests();

const withId = routes.filter((route) => route.url.includes(':id'));

describe('ids no row can have, in the path of every REST route', () => {
  it.each(['%00', 'abc%00def', '99999999999999999999', '0', '-1', '1.5', '%27%3B--'])('%s: 404 not_found, nothing changed', async (id) => {
    const before = await gateway.snapshot();
    for (const route of withId) {
      const answer = await gateway.rest(route.method, `/api/v1${route.url.replace(':id', id)}`, { token: tokens.staff, body: {} });
      expect(answer.status, `${route.method} ${route.url}: ${answer.text}`).toBe(404);
      expect(answer.body).toMatchObject({ meta: { status: 'not_found' } });
    }
    expect(await gateway.snapshot()).toBe(before);
  });

  it('percent-encoding that is not UTF-8: 400 bad_request in the envelope', async () => {
    for (const route of withId) {
      const answer = await gateway.rest(route.method, `/api/v1${route.url.replace(':id', '%ED%A0%80')}`, { token: tokens.staff, body: {} });
      expect(answer.status, `${route.method} ${route.url}: ${answer.text}`).toBe(400);
      expect(answer.body).toEqual({ meta: { status: 'bad_request', message: expect.stringMatching(/URL/), errors: null } });
    }
  });
});

// docs/contract.md, REST routes: every uid the data model allows (255 characters) is reachable on every route; a path parameter
// too long to name a row is 404 in the envelope, and the answer does not quote the URL.
describe('long ids in the path', () => {
  const activityRoutes = withId.filter((route) => route.url.startsWith('/activities/'));
  const classroomRoutes = withId.filter((route) => route.url.startsWith('/classroom_activities/'));

  it.each([150, 255])('an activity whose uid has %i characters answers on every /activities/:id route', async (length) => {
    const uid = 'u'.repeat(length - 4) + '-éü~';
    const created = await gateway.rest('POST', '/api/v1/activities', { token: tokens.staff, body: { activity: { uid, name: 'Long' } } });
    expect(created.status, created.text).toBe(200);
    const path = (url: string) => `/api/v1${url.replace(':id', encodeURIComponent(uid))}`;
    for (const route of activityRoutes.filter((route) => route.method === 'GET')) {
      const answer = await gateway.rest('GET', path(route.url));
      expect(answer.status, `${route.url}: ${answer.text}`).toBe(200);
    }
    const updated = await gateway.rest('PUT', path('/activities/:id'), { token: tokens.staff, body: { activity: { name: 'Longer' } } });
    expect(updated.body.activity).toMatchObject({ uid, name: 'Longer' });
    const deleted = await gateway.rest('DELETE', path('/activities/:id'), { token: tokens.staff });
    expect(deleted.status, deleted.text).toBe(200);
  });

  it.each([
    ['a 101-digit classroom activity id', '9'.repeat(101), classroomRoutes],
    ['a 256-character activity id', 'x'.repeat(256), activityRoutes],
    ['a 5000-character id', 'y'.repeat(5000), withId],
  ])('%s: 404 not_found on every route, the URL not quoted', async (_name, id, routesToTry) => {
    const before = await gateway.snapshot();
    for (const route of routesToTry) {
      const answer = await gateway.rest(route.method, `/api/v1${route.url.replace(':id', id)}`, { token: tokens.staff, body: {} });
      expect(answer.status, `${route.method} ${route.url}: ${answer.text}`).toBe(404);
      expect(answer.body).toEqual({ meta: { status: 'not_found', message: expect.any(String), errors: null } });
      expect(answer.text).not.toContain(id.slice(0, 50));
    }
    expect(await gateway.snapshot()).toBe(before);
  });
});

describe('the same ids through GraphQL', () => {
  it('activity(id:) with a NUL is null, not an error', async () => {
    const answer = await gateway.graphql(graphql(`query ActivityUid($id: ID!) { activity(id: $id) { uid } }`), { id: 'x\u0000y' });
    expect(answer).toMatchObject({ status: 200, data: { activity: null } });
    expect(answer.errors).toBeUndefined();
  });
});
