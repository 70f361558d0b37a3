import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../src/rest/routes.ts';
import { ids, uids } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { AUDIENCE, ISSUER, jwtFor, startSessionWebhook, type SessionWebhook } from '../../kit/identity.ts';
import { classroomActivityPath, forbiddenBody, notFoundBody, rejectedRequest, unauthorizedBody } from '../../kit/rest.ts';

// A REST change authenticated by a cookie and sent from a foreign Origin (docs/identity.md, Cookies are
// ambient credentials) is refused at the permission stage: after the operation's own 404 and 401 checks,
// as 403, and nothing changes. Every write route of the shim is held to it.

const SESSION = '_platform_session';
const JWT_COOKIE = 'platform_jwt';
const LESSONS_ORIGIN = 'https://lessons.school.test';
const FOREIGN = { origin: 'https://evil.test' };
const secret = randomBytes(32).toString('hex');
const signWith = (key: string, sub: number) => jwtFor({ privateKey: new TextEncoder().encode(key), alg: 'HS256' }, { sub: String(sub) });

let webhook: SessionWebhook;
let gateway: Gateway;

beforeAll(async () => {
  webhook = await startSessionWebhook(SESSION);
  for (const [cookie, userId] of [
    ['owner-session', ids.owner],
    ['student-session', ids.students[0]],
    ['staff-session', ids.staff],
  ] as const)
    webhook.answers.set(cookie, { status: 200, body: { userId } });
  gateway = await startGateway({
    AUTH_SESSION_WEBHOOK_URL: webhook.url,
    AUTH_SESSION_COOKIE: SESSION,
    AUTH_JWT_KEY: secret,
    AUTH_JWT_ISSUER: ISSUER,
    AUTH_JWT_AUDIENCE: AUDIENCE,
    AUTH_JWT_COOKIE: JWT_COOKIE,
    CORS_ORIGINS: LESSONS_ORIGIN,
  });
});
beforeEach(() => gateway.reset());
afterAll(async () => {
  await gateway?.close();
  await webhook?.close();
});

const unpin = (cookie: string, id: number = ids.classroomActivity, origin = FOREIGN) =>
  rejectedRequest(gateway, 'PUT', classroomActivityPath('unpin_and_lock_activity', id), { headers: { cookie, ...origin } });

describe('a cookie-authenticated change from a foreign Origin', () => {
  it('to a classroom activity that does not exist: 404, as without the cookie', async () => {
    const answer = await unpin(`${SESSION}=owner-session`, 999_999);
    expect(answer.status, answer.text).toBe(404);
    expect(answer.body).toEqual(notFoundBody);
    expect((await unpin(`${SESSION}=owner-session`, ids.hiddenClassroomActivity)).status).toBe(404);
  });

  it('with a JWT cookie that fails: 401 with the Bearer challenge', async () => {
    const answer = await unpin(`${JWT_COOKIE}=${await signWith(`${secret}x`, ids.owner)}`);
    expect(answer.status, answer.text).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
    expect(answer.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('with a session cookie the webhook says has no session: 401, as anonymous', async () => {
    const answer = await unpin(`${SESSION}=nobody-session`);
    expect(answer.status, answer.text).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
    expect(answer.headers['www-authenticate']).toBeUndefined();
  });

  it('with a valid cookie of a user who does not teach the classroom: 403', async () => {
    const answer = await unpin(`${SESSION}=student-session`);
    expect(answer.status, answer.text).toBe(403);
    expect(answer.body).toEqual(forbiddenBody);
  });

  it('with a valid teacher’s cookie, session or JWT: 403, and nothing changed; from the lessons client’s Origin it runs', async () => {
    for (const cookie of [`${SESSION}=owner-session`, `${JWT_COOKIE}=${await signWith(secret, ids.owner)}`]) {
      const answer = await unpin(cookie);
      expect(answer.status, answer.text).toBe(403);
      expect(answer.body).toEqual(forbiddenBody);
    }
    const allowed = await gateway.rest('PUT', classroomActivityPath('unpin_and_lock_activity'), {
      headers: { cookie: `${SESSION}=owner-session`, origin: LESSONS_ORIGIN },
    });
    expect(allowed.status, allowed.text).toBe(200);
  });
});

describe('every write route of the REST shim', () => {
  const writes = routes.filter((route) => route.method !== 'GET');
  /** The route's path for an id that exists (`known`) or not. */
  const pathOf = (url: string, known: boolean) =>
    `/api/v1${url.replace(':id', url.startsWith('/classroom_activities') ? String(known ? ids.classroomActivity : 999_999) : known ? uids.lesson : 'no-such-activity')}`;

  it('is guarded (no write is open to anyone): the premise of the permission-stage check', () => {
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.filter((route) => route.doc.access === 'anyone').map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });

  it('refuses a cookie from a foreign Origin with 403 whoever it signs in, and changes nothing; 404 first for an unknown id', async () => {
    const cookies = [`${SESSION}=owner-session`, `${SESSION}=staff-session`, `${JWT_COOKIE}=${await signWith(secret, ids.staff)}`];
    for (const route of writes) {
      const body = route.doc.body ? { activity: { name: 'Written from another site' } } : undefined;
      for (const cookie of cookies) {
        const answer = await rejectedRequest(gateway, route.method, pathOf(route.url, true), { body, headers: { cookie, ...FOREIGN } });
        expect(answer.status, `${route.method} ${route.url} with ${cookie.split('=')[0]}: ${answer.text}`).toBe(403);
        expect(answer.body).toEqual(forbiddenBody);
        if (route.url.includes(':id')) {
          const unknown = await rejectedRequest(gateway, route.method, pathOf(route.url, false), { body, headers: { cookie, ...FOREIGN } });
          expect(unknown.status, `${route.method} ${route.url}, unknown id: ${unknown.text}`).toBe(404);
        }
      }
    }
  });
});
