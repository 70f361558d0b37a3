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

describe('the same ids through GraphQL', () => {
  it('activity(id:) with a NUL is null, not an error', async () => {
    const answer = await gateway.graphql(graphql(`query ActivityUid($id: ID!) { activity(id: $id) { uid } }`), { id: 'x\u0000y' });
    expect(answer).toMatchObject({ status: 200, data: { activity: null } });
    expect(answer.errors).toBeUndefined();
  });
});
