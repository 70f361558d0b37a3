import type { Client as StreamClient } from 'graphql-sse';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ids, tokens } from '../../kit/fixture.ts';
import {
  AUDIENCE,
  ISSUER,
  jwtFor,
  signingKey,
  startJwksServer,
  startSessionWebhook,
  type JwksServer,
  type SessionWebhook,
  type SigningKey,
} from '../../kit/identity.ts';
import {
  followStream,
  rawStream,
  refusal,
  startListeningGateway,
  type Follower,
  type ListeningGateway,
  type RawStream,
} from '../../kit/live.ts';

// The identity of a live lesson's event stream (docs/identity.md, Event streams): a JWT as a Bearer token,
// or the platform's cookies under the CSRF rules and only from an origin that may use them; the provider's
// refusal or outage answered before the stream opens; a JWT's stream ended with the JWT.

const COOKIE = '_platform_session';
const LESSONS_ORIGIN = 'https://lessons.school.test';
const lesson = ids.classroomActivity;

let key: SigningKey;
let jwks: JwksServer;
let webhook: SessionWebhook;
let gateway: ListeningGateway;
const followers: Follower<StreamClient>[] = [];
const streams: RawStream[] = [];

beforeAll(async () => {
  key = await signingKey('ES256');
  [jwks, webhook] = await Promise.all([startJwksServer([key]), startSessionWebhook(COOKIE)]);
  webhook.answers.set('teacher-session', { status: 200, body: { userId: ids.owner } });
  webhook.answers.set('broken-session', { status: 500 });
  gateway = await startListeningGateway({
    AUTH_JWT_JWKS_URL: jwks.url,
    AUTH_JWT_ISSUER: ISSUER,
    AUTH_JWT_AUDIENCE: AUDIENCE,
    AUTH_SESSION_WEBHOOK_URL: webhook.url,
    AUTH_SESSION_COOKIE: COOKIE,
    AUTH_SESSION_CACHE_TTL: '0',
    CORS_ORIGINS: LESSONS_ORIGIN,
  });
  await gateway.reset();
});
afterAll(async () => {
  await gateway?.close();
  await Promise.all([jwks?.close(), webhook?.close()]);
});
afterEach(() => {
  vi.useRealTimers();
  for (const follower of followers.splice(0)) follower.client.dispose();
  for (const stream of streams.splice(0)) stream.close();
});

const finishLesson = () => gateway.rest('PUT', `/api/v1/classroom_activities/${lesson}/finish_lesson`, { token: tokens.owner, body: {} });
const startedSoFar = () => gateway.logs().filter((line) => line.msg === 'subscription started').length;

function followWith(token: string | undefined, headers: Record<string, string> = {}) {
  const follower = followStream(gateway.streamUrl, lesson, token, headers);
  followers.push(follower);
  return follower;
}

/** A stream asked for as a browser's EventSource asks: GET, the session cookie, no header of the page's own. */
async function eventSourceWith(headers: Record<string, string>) {
  const stream = await rawStream(gateway.streamUrl, {
    method: 'GET',
    variables: { id: String(lesson) },
    headers: { cookie: `${COOKIE}=teacher-session`, ...headers },
  });
  streams.push(stream);
  return stream;
}

describe('a live lesson’s event stream with the platform’s identity', () => {
  it('a JWT as a Bearer token: the teacher follows the lesson and hears FINISHED', async () => {
    const started = startedSoFar();
    const follower = followWith(await jwtFor(key, { sub: String(ids.owner) }));
    await gateway.waitForLog('subscription started', started + 1);
    expect((await finishLesson()).status).toBe(200);
    expect((await follower.waitForEvents(1))[0]).toMatchObject({ kind: 'FINISHED', classroomActivityId: String(lesson) });
    await gateway.reset();
  });

  it('the session cookie signs a stream in from an allowed Origin; from a foreign one it is ignored (anonymous: UNAUTHENTICATED)', async () => {
    const started = startedSoFar();
    const allowed = followWith(undefined, { origin: LESSONS_ORIGIN, cookie: `${COOKIE}=teacher-session` });
    await gateway.waitForLog('subscription started', started + 1);
    const foreign = followWith(undefined, { origin: 'https://evil.test', cookie: `${COOKIE}=teacher-session` });
    expect(await foreign.ended).toEqual({ complete: true });
    expect(foreign.results).toEqual([{ errors: [expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED' } })] }]);
    expect((await finishLesson()).status).toBe(200);
    expect((await allowed.waitForEvents(1))[0]).toMatchObject({ kind: 'FINISHED' });
    await gateway.reset();
  });

  it('the lessons client, cross-origin with its cookie: the preflight allows the POST, and the stream may be read there', async () => {
    const preflight = await fetch(gateway.streamUrl, {
      method: 'OPTIONS',
      headers: { origin: LESSONS_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(LESSONS_ORIGIN);
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/\bPOST\b/);

    const stream = await rawStream(gateway.streamUrl, {
      variables: { id: String(lesson) },
      headers: { origin: LESSONS_ORIGIN, cookie: `${COOKIE}=teacher-session` },
    });
    streams.push(stream);
    expect(stream.status).toBe(200);
    expect(stream.headers['access-control-allow-origin']).toBe(LESSONS_ORIGIN);
    expect(stream.headers['access-control-allow-credentials']).toBe('true');
  });

  it('an EventSource’s cookie GET opens a stream when the browser vouches for the page: an allowed Origin, or Sec-Fetch-Site: same-origin', async () => {
    const started = startedSoFar();
    const fromLessonsClient = await eventSourceWith({ origin: LESSONS_ORIGIN });
    const fromOwnPage = await eventSourceWith({ 'sec-fetch-site': 'same-origin' });
    expect([fromLessonsClient.status, fromOwnPage.status]).toEqual([200, 200]);
    await gateway.waitForLog('subscription started', started + 2);
    expect((await finishLesson()).status).toBe(200);
    for (const stream of [fromLessonsClient, fromOwnPage])
      await expect.poll(() => stream.events().map((message) => message.data?.data?.lessonEvents?.kind)).toEqual(['FINISHED']);
    await gateway.reset();
  });

  it('refuses a cookie GET no browser vouches for, or from a foreign Origin, as a possible CSRF: 400, nothing subscribed', async () => {
    const started = startedSoFar();
    const unvouched: Record<string, string>[] = [{}, { origin: 'https://evil.test' }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of unvouched) {
      const stream = await eventSourceWith(headers);
      await stream.ended;
      expect(stream.status, JSON.stringify(headers)).toBe(400);
      expect(JSON.parse(stream.text())).toEqual({ errors: [expect.objectContaining({ extensions: { code: 'BAD_REQUEST' } })] });
    }
    expect(startedSoFar()).toBe(started);
  });

  it('a wrong JWT is 401 before the stream opens; the JWKS or the webhook unavailable is 503 with Retry-After', async () => {
    const wrong = await refusal(followWith(await jwtFor(await signingKey('ES256'), { sub: String(ids.owner) })).ended);
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');

    const broken = await refusal(followWith(undefined, { cookie: `${COOKIE}=broken-session` }).ended);
    expect(broken.status).toBe(503);
    expect(broken.headers.get('retry-after')).toBeDefined();
    expect(broken.body.errors[0].extensions.code).toBe('UNAVAILABLE');

    // Down, and past the cooldown of its last fetch: an unseen kid cannot be judged.
    jwks.state = 'down';
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    const fresh = await signingKey('ES256');
    const down = await refusal(followWith(await jwtFor({ ...fresh, kid: 'never-seen' }, { sub: String(ids.owner) })).ended);
    vi.useRealTimers();
    jwks.state = 'up';
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBeDefined();
    expect(down.body.errors[0].extensions.code).toBe('UNAVAILABLE');
  });

  it('ends a JWT’s stream when its exp passes (and the 30 s skew after it): UNAUTHENTICATED, then complete', async () => {
    const exp = Math.floor(Date.now() / 1000) - 28;
    const follower = followWith(await jwtFor(key, { sub: String(ids.owner), exp }, { expiresIn: null }));
    expect(await follower.ended).toEqual({ complete: true });
    expect(follower.results).toEqual([
      { errors: [expect.objectContaining({ message: 'The token has expired', extensions: { code: 'UNAUTHENTICATED' } })] },
    ]);
  });
});
