import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../src/rest/routes.ts';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { basicAuth, forbiddenBody, rejectedRequest, urlEncodedForm } from '../../kit/rest.ts';

// HTTP Basic is an ambient credential, as a cookie is (docs/identity.md, Cookies are ambient credentials): a
// browser replays it by itself. A write it authenticates from a foreign Origin is refused with 403 on every
// face (REST's writes, a /graphql mutation); with no Origin (a server) or a listed one it runs.

const LESSONS_ORIGIN = 'https://lessons.school.test';
const FOREIGN = 'https://evil.example';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({ CORS_ORIGINS: LESSONS_ORIGIN });
});
beforeEach(() => gateway.reset());
afterAll(() => gateway?.close());

const newActivity = { activity: { name: 'Written from another site', uid: 'ambient-basic-0001' } };

describe('REST writes with HTTP Basic', () => {
  it('POST /activities and /published_edition from a foreign Origin with a form body: 403, nothing written', async () => {
    for (const url of ['/api/v1/activities', '/api/v1/published_edition']) {
      const form = urlEncodedForm({ json: JSON.stringify(newActivity) });
      const answer = await rejectedRequest(gateway, 'POST', url, {
        payload: form.payload,
        headers: { ...form.headers, ...basicAuth(tokens.staff), origin: FOREIGN },
      });
      expect(answer.status, `${url}: ${answer.text}`).toBe(403);
      expect(answer.body).toEqual(forbiddenBody);
    }
  });

  it('every write route from a foreign Origin: 403 whoever it signs in; 404 first for an unknown id', async () => {
    const writes = routes.filter((route) => route.method !== 'GET');
    const pathOf = (url: string, known: boolean) =>
      `/api/v1${url.replace(':id', url.startsWith('/classroom_activities') ? String(known ? ids.classroomActivity : 999_999) : known ? uids.lesson : 'no-such-activity')}`;
    for (const route of writes)
      for (const token of [tokens.owner, tokens.staff]) {
        const body = route.doc.body ? newActivity : undefined;
        const headers = { ...basicAuth(token), origin: FOREIGN };
        const answer = await rejectedRequest(gateway, route.method, pathOf(route.url, true), { body, headers });
        expect(answer.status, `${route.method} ${route.url}: ${answer.text}`).toBe(403);
        if (route.url.includes(':id'))
          expect((await rejectedRequest(gateway, route.method, pathOf(route.url, false), { body, headers })).status).toBe(404);
      }
  });

  it('with no Origin, or a listed one, it runs; a Bearer token from any Origin runs', async () => {
    for (const [index, headers] of [
      basicAuth(tokens.staff),
      { ...basicAuth(tokens.staff), origin: LESSONS_ORIGIN },
      { authorization: `Bearer ${tokens.staff}`, origin: FOREIGN },
    ].entries()) {
      const answer = await gateway.rest('POST', '/api/v1/activities', {
        body: { activity: { name: 'Written by a server', uid: `ambient-basic-ok-${index}` } },
        headers,
      });
      expect(answer.status, answer.text).toBe(200);
    }
  });
});

describe('a /graphql mutation with HTTP Basic', () => {
  const unpin = (headers: Record<string, string>) =>
    gateway.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', ...headers },
      payload: { query: `mutation { unpinAndLock(id: "${ids.classroomActivity}") { id locked } }` },
    });

  it('from a foreign Origin: FORBIDDEN, nothing changed; a query it sends still reads', async () => {
    const before = await gateway.snapshot();
    const answer = await unpin({ ...basicAuth(tokens.owner), origin: FOREIGN });
    expect(answer.json().errors?.[0]?.extensions?.code, answer.body).toBe('FORBIDDEN');
    expect(await gateway.snapshot()).toBe(before);
    const read = await gateway.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', ...basicAuth(tokens.owner), origin: FOREIGN },
      payload: { query: `{ classroomActivity(id: "${ids.classroomActivity}") { id } }` },
    });
    expect(read.json(), read.body).toEqual({ data: { classroomActivity: { id: String(ids.classroomActivity) } } });
  });

  it('with no Origin, or a listed one, it runs', async () => {
    for (const headers of [basicAuth(tokens.owner), { ...basicAuth(tokens.owner), origin: LESSONS_ORIGIN }]) {
      const answer = await unpin(headers);
      expect(answer.json(), answer.body).toEqual({ data: { unpinAndLock: { id: String(ids.classroomActivity), locked: true } } });
    }
  });
});
