import { createClient } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
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
import { follow, LESSON_EVENTS, startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';

// The identity of a live lesson's socket is settled at connection_init (docs/identity.md, WebSocket): a
// JWT in its payload, or the upgrade's cookies when its Origin may use them; a JWT's socket ends with the JWT.

const COOKIE = '_platform_session';
const LESSONS_ORIGIN = 'https://lessons.school.test';
const lesson = ids.classroomActivity;

let key: SigningKey;
let jwks: JwksServer;
let webhook: SessionWebhook;
let gateway: ListeningGateway;

// The clock is moved on (the key set's cooldown and cache age) within a test only: it is put back after each.
afterEach(() => void vi.useRealTimers());

beforeAll(async () => {
  key = await signingKey('ES256');
  [jwks, webhook] = await Promise.all([startJwksServer([key]), startSessionWebhook(COOKIE)]);
  webhook.answers.set('teacher-session', { status: 200, body: { userId: ids.owner } });
  gateway = await startListeningGateway({
    AUTH_JWT_JWKS_URL: jwks.url,
    AUTH_JWT_ISSUER: ISSUER,
    AUTH_JWT_AUDIENCE: AUDIENCE,
    AUTH_SESSION_WEBHOOK_URL: webhook.url,
    AUTH_SESSION_COOKIE: COOKIE,
    CORS_ORIGINS: LESSONS_ORIGIN,
  });
});
afterAll(async () => {
  await gateway?.close();
  await Promise.all([jwks?.close(), webhook?.close()]);
});

/** A WebSocket that sends the upgrade with these headers, as a browser would (Origin, cookies). */
const socketWith = (headers: Record<string, string>) =>
  class extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  };

/** Follows the lesson with these upgrade headers and no token in connection_init. */
function followWithUpgrade(headers: Record<string, string>, closed?: (event: { code: number }) => void) {
  const client = createClient({
    url: gateway.wsUrl,
    webSocketImpl: socketWith(headers),
    retryAttempts: 0,
    on: closed ? { closed: closed as never } : {},
  });
  const events: unknown[] = [];
  const ended = new Promise<{ error?: any; complete?: true }>((resolve) =>
    client.subscribe(
      { query: LESSON_EVENTS, variables: { id: String(lesson) } },
      { next: (value) => void events.push(value), error: (error) => resolve({ error }), complete: () => resolve({ complete: true }) },
    ),
  );
  return { client, events, ended };
}

const finishLesson = () => gateway.rest('PUT', `/api/v1/classroom_activities/${lesson}/finish_lesson`, { token: tokens.owner, body: {} });

describe('a live lesson followed with the platform’s identity', () => {
  it('a JWT in connection_init: the teacher follows the lesson and hears FINISHED', async () => {
    const follower = follow(gateway.wsUrl, lesson, await jwtFor(key, { sub: String(ids.owner) }));
    await gateway.waitForLog('subscription started');
    expect((await finishLesson()).status).toBe(200);
    const [event] = await follower.waitForEvents(1);
    expect(event).toMatchObject({ kind: 'FINISHED', classroomActivityId: String(lesson) });
    await follower.client.dispose();
    await gateway.reset();
  });

  it('the session cookie of an upgrade from an allowed Origin signs the socket in; from a foreign one it is ignored', async () => {
    const started = gateway.logs().filter((line) => line.msg === 'subscription started').length;
    const allowed = followWithUpgrade({ origin: LESSONS_ORIGIN, cookie: `${COOKIE}=teacher-session` });
    await gateway.waitForLog('subscription started', started + 1);
    const foreign = followWithUpgrade({ origin: 'https://evil.test', cookie: `${COOKIE}=teacher-session` });
    // Anonymous: it may connect, not subscribe.
    expect(await foreign.ended).toEqual({ complete: true });
    expect(foreign.events).toEqual([{ errors: [expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED' } })] }]);
    expect((await finishLesson()).status).toBe(200);
    await waitFor(() => allowed.events.length === 1, 'the FINISHED event on the cookie socket');
    expect(allowed.events).toEqual([{ data: { lessonEvents: expect.objectContaining({ kind: 'FINISHED' }) } }]);
    await allowed.client.dispose();
    await foreign.client.dispose();
    await gateway.reset();
  });

  it('HTTP Basic in the upgrade counts as a cookie does: from an allowed Origin it signs the socket in, from a foreign one it is ignored', async () => {
    const basic = { authorization: `Basic ${Buffer.from(`${tokens.owner}:`).toString('base64')}` };
    const started = gateway.logs().filter((line) => line.msg === 'subscription started').length;
    const allowed = followWithUpgrade({ origin: LESSONS_ORIGIN, ...basic });
    await gateway.waitForLog('subscription started', started + 1);
    const foreign = followWithUpgrade({ origin: 'https://evil.test', ...basic });
    expect(await foreign.ended).toEqual({ complete: true });
    expect(foreign.events).toEqual([{ errors: [expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED' } })] }]);
    await allowed.client.dispose();
    await foreign.client.dispose();
  });

  it('a wrong JWT closes the socket with 4403; the JWKS unavailable with 1013', async () => {
    const codes: number[] = [];
    const wrong = follow(gateway.wsUrl, lesson, await jwtFor(await signingKey('ES256'), { sub: String(ids.owner) }), {
      closed: (event) => codes.push(event.code),
    });
    await wrong.ended;
    // Down, and past the cooldown of its last fetch: an unseen kid cannot be judged.
    jwks.state = 'down';
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    const fresh = await signingKey('ES256');
    const down = follow(gateway.wsUrl, lesson, await jwtFor({ ...fresh, kid: 'never-seen' }, { sub: String(ids.owner) }), {
      closed: (event) => codes.push(event.code),
    });
    await down.ended;
    vi.useRealTimers();
    jwks.state = 'up';
    expect(codes).toEqual([4403, 1013]);
  });

  it('keeps the socket of a JWT expiring in 30 days open (beyond the longest delay a Node timer takes): it hears FINISHED', async () => {
    const codes: number[] = [];
    const started = gateway.logs().filter((line) => line.msg === 'subscription started').length;
    const follower = follow(gateway.wsUrl, lesson, await jwtFor(key, { sub: String(ids.owner) }, { expiresIn: '30d' }), {
      closed: (event) => codes.push(event.code),
    });
    await gateway.waitForLog('subscription started', started + 1);
    expect((await finishLesson()).status).toBe(200);
    const [event] = await follower.waitForEvents(1);
    expect(event).toMatchObject({ kind: 'FINISHED', classroomActivityId: String(lesson) });
    expect(codes).toEqual([]);
    await follower.client.dispose();
    await gateway.reset();
  });

  it('closes a JWT’s socket with 4403 when its exp passes (and the 30 s skew after it)', async () => {
    const codes: number[] = [];
    const exp = Math.floor(Date.now() / 1000) - 28;
    const follower = follow(gateway.wsUrl, lesson, await jwtFor(key, { sub: String(ids.owner), exp }, { expiresIn: null }), {
      closed: (event) => codes.push(event.code),
    });
    await follower.ended;
    expect(codes).toEqual([4403]);
    expect(follower.results).toEqual([]);
  });
});
