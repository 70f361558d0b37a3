import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ids, tokens } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { AUDIENCE, ISSUER, jwtFor, signingKey, startJwksServer, startSessionWebhook, type SessionWebhook } from '../../kit/identity.ts';
import { scrape, total } from '../../kit/metrics.ts';
import { freePort } from '../../kit/ports.ts';
import { basicAuth, classroomActivityPath, unauthorizedBody } from '../../kit/rest.ts';

// Callers signed in with the platform's identity (docs/identity.md, Counting callers): the rate limit
// counts them per user, the metrics count their authentications, the log never holds their JWT, and no
// header naming a user (from a router or a client) ever signs anyone in.

const SESSION = '_platform_session';
const JWT_COOKIE = 'platform_jwt';
const secret = randomBytes(32).toString('hex');
const hs256 = { privateKey: new TextEncoder().encode(secret), alg: 'HS256' };
const jwtOf = (userId: number, claims: Record<string, unknown> = {}) => jwtFor(hs256, { sub: String(userId), ...claims });

let webhook: SessionWebhook;
beforeAll(async () => {
  webhook = await startSessionWebhook(SESSION);
  webhook.answers.set('owner-session', { status: 200, body: { userId: ids.owner } });
});
afterAll(() => webhook?.close());
// The clock is stood still or moved on within a test only: it is put back after each.
afterEach(() => void vi.useRealTimers());

const identityEnv = () => ({
  AUTH_JWT_KEY: secret,
  AUTH_JWT_ISSUER: ISSUER,
  AUTH_JWT_AUDIENCE: AUDIENCE,
  AUTH_JWT_COOKIE: JWT_COOKIE,
  AUTH_SESSION_WEBHOOK_URL: webhook.url,
  AUTH_SESSION_COOKIE: SESSION,
});

describe('the rate limit', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({ ...identityEnv(), RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '10 minutes' });
  });
  afterAll(() => gateway?.close());

  const studentNames = (ip: string, headers: Record<string, string>) =>
    gateway.app.inject({ method: 'GET', url: classroomActivityPath('student_names'), remoteAddress: ip, headers });

  it('counts a JWT or session caller per user: two JWTs and the session cookie of one user share one budget, whatever the IP', async () => {
    const first = `Bearer ${await jwtOf(ids.owner, { jti: 'first' })}`;
    const second = `Bearer ${await jwtOf(ids.owner, { jti: 'second' })}`;
    const cookie = `${SESSION}=owner-session`;
    expect((await studentNames('10.3.0.1', { authorization: first })).statusCode).toBe(200);
    expect((await studentNames('10.3.0.2', { authorization: second })).statusCode).toBe(200);
    expect((await studentNames('10.3.0.3', { cookie })).statusCode).toBe(200);
    for (const headers of [{ authorization: first }, { authorization: second }, { cookie }] as Record<string, string>[]) {
      const limited = await studentNames('10.3.0.4', headers);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().meta.status).toBe('rate_limited');
    }
    // Another user from the same IP, the same IP anonymously, and the same user's own token (counted by
    // the token, as always) each have a budget of their own.
    expect((await studentNames('10.3.0.4', { authorization: `Bearer ${await jwtOf(ids.coteacher)}` })).statusCode).toBe(200);
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/api/v1/activities/uids_and_flags', remoteAddress: '10.3.0.4' })).statusCode,
    ).toBe(200);
    expect((await studentNames('10.3.0.4', { authorization: `Bearer ${tokens.owner}` })).statusCode).toBe(200);
  });
});

describe('authentications_total for JWTs', () => {
  it('counts each JWT authentication by outcome: unavailable, success (remembered or not), invalid', async () => {
    const key = await signingKey('ES256');
    const jwks = await startJwksServer([key]);
    const port = await freePort();
    jwks.state = 'down';
    const gateway = await startGateway({
      AUTH_JWT_JWKS_URL: jwks.url,
      AUTH_JWT_ISSUER: ISSUER,
      AUTH_JWT_AUDIENCE: AUDIENCE,
      AUTH_JWT_JWKS_TIMEOUT: '300ms',
      METRICS_PORT: String(port),
    });
    try {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      const jwt = await jwtFor(key, { sub: String(ids.owner) });
      const ask = (authorization: string) => gateway.rest('GET', classroomActivityPath('student_names'), { headers: { authorization } });
      expect((await ask(`Bearer ${jwt}`)).status).toBe(503);
      // Back up, and past the pause after a failed first fetch.
      jwks.state = 'up';
      vi.setSystemTime(Date.now() + 5_000);
      expect((await ask(`Bearer ${jwt}`)).status).toBe(200);
      expect((await ask(`Bearer ${jwt}`)).status).toBe(200);
      expect((await ask(`Bearer ${await jwtFor(key, { sub: String(ids.owner), aud: 'another-service' })}`)).status).toBe(401);
      expect((await ask(basicAuth(jwt).authorization!)).status).toBe(401);
      const samples = await scrape(`http://127.0.0.1:${port}/metrics`);
      const jwtCount = (outcome: string) => total(samples, 'authentications_total', { method: 'jwt', outcome });
      expect([jwtCount('unavailable'), jwtCount('success'), jwtCount('invalid')]).toEqual([1, 2, 1]);
      // Basic is the gateway's own token, whatever its user name looks like.
      expect(total(samples, 'authentications_total', { method: 'token', outcome: 'invalid' })).toBe(1);
    } finally {
      vi.useRealTimers();
      await gateway.close();
      await jwks.close();
    }
  });
});

describe('with JWTs and sessions on', () => {
  const lines: string[] = [];
  let gateway: Gateway;
  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    // The most the gateway ever logs.
    gateway = await startGateway({ ...identityEnv(), LOG_LEVEL: 'trace' }, { logStream });
  });
  afterAll(() => gateway?.close());

  it('no log line holds a JWT, its payload or its signature, nor a JWT cookie’s value, whether accepted or refused', async () => {
    const good = await jwtOf(ids.owner);
    const expired = await jwtFor(hs256, { sub: String(ids.owner), exp: Math.floor(Date.now() / 1000) - 3_600 }, { expiresIn: null });
    const forged = `${good.split('.').slice(0, 2).join('.')}.${randomBytes(32).toString('base64url')}`;
    const inCookie = await jwtOf(ids.owner, { jti: 'cookie' });
    const badCookie = await jwtFor({ ...hs256, privateKey: new TextEncoder().encode(`${secret}x`) }, { sub: String(ids.owner) });
    lines.length = 0;
    const path = classroomActivityPath('student_names');
    const statuses = [];
    for (const headers of [
      { authorization: `Bearer ${good}` },
      { authorization: `Bearer ${expired}` },
      { authorization: `Bearer ${forged}` },
      { cookie: `${JWT_COOKIE}=${inCookie}` },
      { cookie: `${JWT_COOKIE}=${badCookie}` },
      basicAuth(good),
    ])
      statuses.push((await gateway.rest('GET', path, { headers })).status);
    statuses.push((await gateway.graphql('query WhoIsCalling { viewer { id } }', {}, expired)).status);
    expect(statuses).toEqual([200, 401, 401, 200, 401, 401, 200]);
    const text = lines.join('\n');
    for (const jwt of [good, expired, forged, inCookie, badCookie]) {
      const [, payload, signature] = jwt.split('.');
      for (const part of [jwt, payload!, signature!]) expect(text).not.toContain(part);
    }
    const requests = lines.map((line) => JSON.parse(line) as Record<string, any>).filter((line) => line.msg === 'request');
    expect(requests.map((line) => [line.userId, line.auth])).toEqual([
      [ids.owner, { method: 'jwt' }],
      [undefined, { method: 'jwt', failed: 'ERR_JWT_EXPIRED (exp: check_failed)' }],
      [undefined, { method: 'jwt', failed: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' }],
      [ids.owner, { method: 'jwt' }],
      [undefined, { method: 'jwt', failed: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' }],
      [undefined, { method: 'token', failed: 'unknown token' }],
      [undefined, { method: 'jwt', failed: 'ERR_JWT_EXPIRED (exp: check_failed)' }],
    ]);
  });

  it('a header naming a user, from a router or a client, signs nobody in: anonymous stays anonymous', async () => {
    const claimed = String(ids.owner);
    const headers = {
      'x-user-id': claimed,
      'x-forwarded-user': claimed,
      'x-auth-request-user': claimed,
      'x-remote-user': claimed,
      'remote-user': claimed,
      'x-authenticated-userid': claimed,
      'x-jwt-payload': Buffer.from(JSON.stringify({ sub: claimed, iss: ISSUER, aud: AUDIENCE })).toString('base64url'),
      'x-user': JSON.stringify({ id: claimed, role: 'staff' }),
    };
    const viewer = await gateway.rest('POST', '/graphql', { body: { query: '{ viewer { id } }' }, headers });
    expect(viewer.status, viewer.text).toBe(200);
    expect(viewer.body.data).toEqual({ viewer: null });
    const guarded = await gateway.rest('GET', classroomActivityPath('student_names'), { headers });
    expect(guarded.status).toBe(401);
    expect(guarded.body).toEqual(unauthorizedBody);
    // Beside a session cookie the webhook knows nothing of: still anonymous.
    const withCookie = await gateway.rest('GET', classroomActivityPath('student_names'), {
      headers: { ...headers, cookie: `${SESSION}=nobody-session` },
    });
    expect(withCookie.status).toBe(401);
    expect((await gateway.rest('GET', '/api/v1/activities/uids_and_flags', { headers })).status).toBe(200);
  });
});
