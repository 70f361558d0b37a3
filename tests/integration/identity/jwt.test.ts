import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { exportSPKI, generateKeyPair, importJWK, type CryptoKey } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ids, tokens } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { errorCodes } from '../../kit/graphql.ts';
import {
  AUDIENCE,
  ISSUER,
  jwtFor,
  platformCertificate,
  signingKey,
  startJwksServer,
  unsecuredJwt,
  type JwksServer,
  type SigningKey,
} from '../../kit/identity.ts';
import { classroomActivityPath, unauthorizedBody } from '../../kit/rest.ts';
import { graphql } from '../../kit/gql/index.ts';

// JWTs from the platform's identity provider (docs/identity.md): verified against its JWKS or a static key,
// each check refusing with 401 (never anonymous), the provider's outage 503; the user is the gateway's own.

const owner = String(ids.owner);

const studentNames = (gateway: Gateway, authorization: string) =>
  gateway.rest('GET', classroomActivityPath('student_names'), { headers: { authorization } });
const VIEWER = graphql(`query JwtViewer { viewer { id name role } }`);
const viewerOf = async (gateway: Gateway, jwt: string) => await gateway.graphql(VIEWER, {}, jwt);

/** A 401 as REST answers a credential that fails: the envelope and the Bearer challenge. */
async function expectRefused(gateway: Gateway, jwt: string) {
  const answer = await studentNames(gateway, `Bearer ${jwt}`);
  expect(answer.status, answer.text).toBe(401);
  expect(answer.body).toEqual(unauthorizedBody);
  expect(answer.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  const graphql = await viewerOf(gateway, jwt);
  expect(errorCodes(graphql)).toEqual(['UNAUTHENTICATED']);
}

async function expectAccepted(gateway: Gateway, jwt: string, userId = owner) {
  const answer = await studentNames(gateway, `Bearer ${jwt}`);
  expect(answer.status, answer.text).toBe(userId === owner ? 200 : 403);
  expect((await viewerOf(gateway, jwt)).data!.viewer!.id).toBe(userId);
}

/** How long a failed first fetch of the key set is not tried again (docs/identity.md). */
const FIRST_FETCH_RETRY_MS = 5_000;

/** An ES384 key (P-384), which a P-256 key cannot verify. */
const signingKey384 = () => ({ privateKey: generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey, alg: 'ES384' });

// The clock is moved on (the key set's cooldown and cache age) within a test only: it is put back after each.
afterEach(() => void vi.useRealTimers());

describe('JWTs verified against a JWKS', () => {
  let rsa: SigningKey, ec: SigningKey, ed: SigningKey;
  let jwks: JwksServer;
  let gateway: Gateway;
  beforeAll(async () => {
    [rsa, ec, ed] = await Promise.all([signingKey('RS256'), signingKey('ES256'), signingKey('EdDSA')]);
    jwks = await startJwksServer([rsa, ec, ed]);
    gateway = await startGateway({
      AUTH_JWT_JWKS_URL: jwks.url,
      AUTH_JWT_ISSUER: `${ISSUER}, https://other-issuer.test`,
      AUTH_JWT_AUDIENCE: AUDIENCE,
      AUTH_JWT_USER_CLAIM: 'sub',
    });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await gateway?.close();
    await jwks?.close();
  });

  it('accepts RS256, ES256 and EdDSA, and takes role and name from the database, not the token', async () => {
    for (const key of [rsa, ec, ed]) await expectAccepted(gateway, await jwtFor(key, { sub: owner, role: 'staff', name: 'Mallory' }));
    expect((await viewerOf(gateway, await jwtFor(rsa, { sub: owner, role: 'staff' }))).data!.viewer).toEqual({
      id: owner,
      name: 'Ada Park',
      role: 'TEACHER',
    });
    // A student's JWT: signed in, but not a teacher of the classroom.
    await expectAccepted(gateway, await jwtFor(rsa, { sub: String(ids.students[0]) }), String(ids.students[0]));
  });

  it('refuses alg none, an HS256 token signed with the public key as its secret, and an algorithm outside the list', async () => {
    await expectRefused(gateway, unsecuredJwt({ sub: owner }));
    // The RSA public key's PEM used as an HMAC secret, as if the verifier would take the key for a secret.
    const publicPem = await exportSPKI((await importJWK(rsa.jwk, 'RS256')) as CryptoKey);
    await expectRefused(
      gateway,
      await jwtFor({ privateKey: new TextEncoder().encode(publicPem), alg: 'HS256', kid: rsa.kid }, { sub: owner }),
    );
    const rs384 = await signingKey('RS384');
    jwks.keys.push(rs384);
    await expectRefused(gateway, await jwtFor(rs384, { sub: owner }));
    jwks.keys.pop();
  });

  it('refuses a bad signature, a token past its exp (but not within the 30 s skew), nbf ahead and no exp', async () => {
    const good = await jwtFor(rsa, { sub: owner });
    const [header, payload] = good.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ iss: ISSUER, aud: AUDIENCE, sub: String(ids.staff), exp: 9_999_999_999 })).toString('base64url')}.${good.split('.')[2]}`;
    await expectRefused(gateway, forged);
    await expectRefused(gateway, `${header}.${payload}.${randomBytes(256).toString('base64url')}`);
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(gateway, await jwtFor(rsa, { sub: owner, exp: now - 60 }, { expiresIn: null }));
    await expectAccepted(gateway, await jwtFor(rsa, { sub: owner, exp: now - 10 }, { expiresIn: null }));
    await expectRefused(gateway, await jwtFor(rsa, { sub: owner, nbf: now + 120 }));
    await expectRefused(gateway, await jwtFor(rsa, { sub: owner }, { expiresIn: null }));
  });

  it('refuses a wrong or missing issuer, and a wrong or missing audience, as a string or a list', async () => {
    await expectAccepted(gateway, await jwtFor(rsa, { sub: owner, iss: 'https://other-issuer.test' }));
    await expectRefused(gateway, await jwtFor(rsa, { sub: owner, iss: 'https://evil.test' }));
    await expectRefused(gateway, await jwtFor(rsa, { sub: owner, iss: undefined }));
    await expectAccepted(gateway, await jwtFor(rsa, { sub: owner, aud: ['another-service', AUDIENCE] }));
    await expectRefused(gateway, await jwtFor(rsa, { sub: owner, aud: 'another-service' }));
    await expectRefused(gateway, await jwtFor(rsa, { sub: owner, aud: ['another-service', 'a-third'] }));
    await expectRefused(gateway, await jwtFor(rsa, { sub: owner, aud: undefined }));
  });

  it('refuses a user id that is not a positive integer, or that the database does not have: no user is created', async () => {
    for (const sub of ['ada', '1.5', '-1', '0', '999999', '']) await expectRefused(gateway, await jwtFor(rsa, { sub }));
    await expectRefused(gateway, await jwtFor(rsa, {}));
    expect(await gateway.database.prisma.user.count({ where: { id: 999_999 } })).toBe(0);
  });

  it('an unknown kid makes one refetch, then 401; 50 random kids at once make at most one fetch per cooldown', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    vi.setSystemTime(Date.now() + 31_000);
    const before = jwks.fetches;
    const stranger = await signingKey('RS256');
    await expectRefused(gateway, await jwtFor(stranger, { sub: owner }));
    expect(jwks.fetches - before).toBe(1);
    const burst = await Promise.all(
      Array.from({ length: 50 }, async (_, i) =>
        studentNames(gateway, `Bearer ${await jwtFor({ ...stranger, kid: `random-${i}` }, { sub: owner })}`),
      ),
    );
    expect(burst.map((answer) => answer.status)).toEqual(Array(50).fill(401));
    expect(jwks.fetches - before).toBe(1);
    vi.useRealTimers();
  });

  it('accepts keys rotated at the JWKS without a restart, and keeps verifying with the last keys while the JWKS is down', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const rotated = await signingKey('ES256');
    jwks.keys = [rotated, rsa];
    // Past the cooldown of the last fetch (the test before moved the clock 31 s on, then back).
    vi.setSystemTime(Date.now() + 2 * 60_000);
    await expectAccepted(gateway, await jwtFor(rotated, { sub: owner }));
    // Down after warm-up, and the cached set stale (10 minutes): the last keys still verify.
    jwks.state = 'down';
    vi.setSystemTime(Date.now() + 11 * 60_000);
    const fetches = jwks.fetches;
    await expectAccepted(gateway, await jwtFor(rotated, { sub: owner, jti: 'fresh' }));
    await expectAccepted(gateway, await jwtFor(rsa, { sub: owner, jti: 'fresh' }));
    expect(jwks.fetches - fetches).toBe(1);
    // A kid it never saw cannot be judged while the JWKS is down: unavailable, not refused.
    const unseen = await studentNames(gateway, `Bearer ${await jwtFor(await signingKey('RS256'), { sub: owner })}`);
    expect(unseen.status).toBe(503);
    jwks.state = 'up';
    vi.useRealTimers();
  });

  it('a verified JWT is remembered until its user changes; Basic with that JWT as its user name is not the JWT (401)', async () => {
    const jwt = await jwtFor(rsa, { sub: String(ids.staff) });
    expect((await viewerOf(gateway, jwt)).data!.viewer!.role).toBe('STAFF');
    const statements = gateway.statements();
    expect((await viewerOf(gateway, jwt)).data!.viewer!.role).toBe('STAFF');
    expect(gateway.statements() - statements).toBe(0);
    // Basic is always the gateway's own token, whatever its user name looks like.
    const basic = await studentNames(gateway, `Basic ${Buffer.from(`${jwt}:`).toString('base64')}`);
    expect(basic.status, basic.text).toBe(401);
    expect(basic.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    await gateway.writeTokensOrUsers((prisma) =>
      prisma.user.update({ where: { id: ids.staff }, data: { role: 'teacher', name: 'Sam Teacher' } }),
    );
    expect((await viewerOf(gateway, jwt)).data!.viewer).toEqual({ id: String(ids.staff), name: 'Sam Teacher', role: 'TEACHER' });
    await gateway.reset();
  });

  it('the gateway’s own tokens and Basic work as before beside JWTs', async () => {
    expect((await studentNames(gateway, `Bearer ${tokens.owner}`)).status).toBe(200);
    expect((await studentNames(gateway, `Basic ${Buffer.from(`${tokens.owner}:`).toString('base64')}`)).status).toBe(200);
    const wrong = await studentNames(gateway, 'Bearer not-a-token');
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });
});

describe('the JWKS unavailable at start, or slower than its timeout', () => {
  let key: SigningKey;
  let jwks: JwksServer;
  beforeAll(async () => {
    key = await signingKey('RS256');
    jwks = await startJwksServer([key]);
  });
  afterAll(() => jwks?.close());
  const gatewayOn = () =>
    startGateway({ AUTH_JWT_JWKS_URL: jwks.url, AUTH_JWT_ISSUER: ISSUER, AUTH_JWT_AUDIENCE: AUDIENCE, AUTH_JWT_JWKS_TIMEOUT: '300ms' });

  it('answers 503 with Retry-After (GraphQL: UNAVAILABLE, HTTP 503) while it cannot get keys, then recovers by itself', async () => {
    jwks.state = 'down';
    const gateway = await gatewayOn();
    try {
      const jwt = await jwtFor(key, { sub: owner });
      const refused = await studentNames(gateway, `Bearer ${jwt}`);
      expect(refused.status).toBe(503);
      expect(refused.body.meta.status).toBe('unavailable');
      expect(refused.headers['retry-after']).toBeDefined();
      const graphql = await viewerOf(gateway, jwt);
      expect(graphql.status).toBe(503);
      expect(errorCodes(graphql)).toEqual(['UNAVAILABLE']);
      // Public reads too: the credential presented cannot be judged (only a session cookie falls back to anonymous).
      expect((await gateway.rest('GET', '/api/v1/activities/uids_and_flags', { token: jwt })).status).toBe(503);
      // Back up: tried again once the pause after a failed first fetch is over (the clock moved past it).
      jwks.state = 'up';
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + FIRST_FETCH_RETRY_MS });
      expect((await studentNames(gateway, `Bearer ${jwt}`)).status).toBe(200);
    } finally {
      vi.useRealTimers();
      await gateway.close();
    }
  });

  it('while no key set was ever fetched, a failed fetch is tried again only after a pause: 30 requests make one fetch', async () => {
    jwks.state = 'down';
    const gateway = await gatewayOn();
    try {
      // The clock stands still: however slow the machine, all 30 requests come within the pause.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      const jwt = await jwtFor(key, { sub: owner });
      const before = jwks.fetches;
      for (let i = 0; i < 15; i += 1) expect((await studentNames(gateway, `Bearer ${jwt}`)).status).toBe(503);
      const burst = await Promise.all(Array.from({ length: 15 }, () => studentNames(gateway, `Bearer ${jwt}`)));
      expect(burst.map((answer) => answer.status)).toEqual(Array(15).fill(503));
      expect(jwks.fetches - before).toBe(1);
      // After the pause, one more try (still down), then the pause again.
      vi.setSystemTime(Date.now() + FIRST_FETCH_RETRY_MS);
      for (let i = 0; i < 5; i += 1) expect((await studentNames(gateway, `Bearer ${jwt}`)).status).toBe(503);
      expect(jwks.fetches - before).toBe(2);
    } finally {
      vi.useRealTimers();
      jwks.state = 'up';
      await gateway.close();
    }
  });

  it('answers 503 when the JWKS answers slower than AUTH_JWT_JWKS_TIMEOUT, without waiting for it', async () => {
    jwks.state = 'slow';
    jwks.slowMs = 5_000;
    const gateway = await gatewayOn();
    try {
      const began = performance.now();
      const answer = await studentNames(gateway, `Bearer ${await jwtFor(key, { sub: owner })}`);
      expect(answer.status).toBe(503);
      expect(performance.now() - began).toBeLessThan(4_000);
    } finally {
      jwks.state = 'up';
      await gateway.close();
    }
  });
});

describe('JWTs with a static key', () => {
  /** Runs `check` on a gateway verifying JWTs with AUTH_JWT_KEY `key` and AUTH_JWT_ALGORITHMS `algorithms`. */
  async function withStaticKey(key: string, algorithms: string, check: (gateway: Gateway) => Promise<void>) {
    const gateway = await startGateway({
      AUTH_JWT_KEY: key,
      AUTH_JWT_ALGORITHMS: algorithms,
      AUTH_JWT_ISSUER: ISSUER,
      AUTH_JWT_AUDIENCE: AUDIENCE,
    });
    try {
      await check(gateway);
    } finally {
      await gateway.close();
    }
  }

  it('HS256 with a shared secret, and the user claim at a namespaced path', async () => {
    const secret = randomBytes(32).toString('hex');
    const gateway = await startGateway({
      AUTH_JWT_KEY: secret,
      AUTH_JWT_ISSUER: ISSUER,
      AUTH_JWT_AUDIENCE: AUDIENCE,
      AUTH_JWT_USER_CLAIM: 'https://example.org/claims.user_id',
    });
    try {
      const key = { privateKey: new TextEncoder().encode(secret), alg: 'HS256' };
      await expectAccepted(gateway, await jwtFor(key, { 'https://example.org/claims': { user_id: owner }, sub: String(ids.staff) }));
      await expectAccepted(gateway, await jwtFor(key, { 'https://example.org/claims': { user_id: ids.owner } }));
      await expectRefused(gateway, await jwtFor(key, { sub: owner }));
      await expectRefused(gateway, await jwtFor(key, { 'https://example.org/claims': { user_id: 'x' } }));
      await expectRefused(
        gateway,
        await jwtFor(
          { privateKey: new TextEncoder().encode(`${secret}x`), alg: 'HS256' },
          { 'https://example.org/claims': { user_id: owner } },
        ),
      );
      // The right secret, but an algorithm outside AUTH_JWT_ALGORITHMS (HS256 by default with a secret).
      const header = Buffer.from(JSON.stringify({ alg: 'HS512' })).toString('base64url');
      const body = Buffer.from(
        JSON.stringify({ iss: ISSUER, aud: AUDIENCE, exp: 9_999_999_999, 'https://example.org/claims': { user_id: owner } }),
      ).toString('base64url');
      await expectRefused(gateway, `${header}.${body}.${createHmac('sha512', secret).update(`${header}.${body}`).digest('base64url')}`);
    } finally {
      await gateway.close();
    }
  });

  it('a PKCS#1 public key with RS256,HS256 listed: RS256 verifies; HS256 signed with the key’s PEM text as a secret is refused', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pkcs1 = publicKey.export({ type: 'pkcs1', format: 'pem' }) as string;
    await withStaticKey(pkcs1, 'RS256,HS256', async (gateway) => {
      await expectAccepted(gateway, await jwtFor({ privateKey, alg: 'RS256' }, { sub: owner }));
      for (const pem of [pkcs1, publicKey.export({ type: 'spki', format: 'pem' }) as string])
        await expectRefused(gateway, await jwtFor({ privateKey: new TextEncoder().encode(pem), alg: 'HS256' }, { sub: owner }));
      // Another algorithm of the key's family, not listed.
      await expectRefused(gateway, await jwtFor({ privateKey, alg: 'PS256' }, { sub: owner }));
    });
  });

  it('an X.509 certificate: ES256 tokens of its key verify; another curve’s or family’s algorithm is refused (401, not 503)', async () => {
    const { certificate, signingKey: certified } = platformCertificate();
    await withStaticKey(certificate, 'ES256,ES384,RS256', async (gateway) => {
      await expectAccepted(gateway, await jwtFor(certified, { sub: owner }));
      await expectRefused(gateway, await jwtFor(signingKey384(), { sub: owner }));
      await expectRefused(gateway, await jwtFor(await signingKey('RS256'), { sub: owner }));
    });
  });

  it('a PEM public key, and a JWT cookie only when AUTH_JWT_COOKIE names it', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const pem = await exportSPKI(publicKey);
    const jwt = await jwtFor({ privateKey, alg: 'ES256' }, { sub: owner });
    const withCookie = await startGateway({
      AUTH_JWT_KEY: pem,
      AUTH_JWT_ISSUER: ISSUER,
      AUTH_JWT_AUDIENCE: AUDIENCE,
      AUTH_JWT_COOKIE: 'platform_jwt',
    });
    const without = await startGateway({ AUTH_JWT_KEY: pem.replace(/\n/g, '\\n'), AUTH_JWT_ISSUER: ISSUER, AUTH_JWT_AUDIENCE: AUDIENCE });
    try {
      await expectAccepted(withCookie, jwt);
      await expectAccepted(without, jwt);
      const byCookie = (gateway: Gateway) =>
        gateway.rest('GET', classroomActivityPath('student_names'), { headers: { cookie: `theme=dark; platform_jwt=${jwt}` } });
      expect((await byCookie(withCookie)).status).toBe(200);
      expect((await byCookie(without)).status).toBe(401);
      expect((await byCookie(without)).headers['www-authenticate']).toBeUndefined();
      const badCookie = await withCookie.rest('GET', classroomActivityPath('student_names'), { headers: { cookie: 'platform_jwt=x.y.z' } });
      expect(badCookie.status).toBe(401);
      expect(badCookie.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      // Authorization wins over cookies, whichever of them is wrong: no failure falls through to the next.
      const both = (authorization: string, cookie: string) =>
        withCookie.rest('GET', classroomActivityPath('student_names'), { headers: { authorization, cookie: `platform_jwt=${cookie}` } });
      expect((await both('Bearer not-a-token', jwt)).status).toBe(401);
      expect((await both(`Bearer ${tokens.owner}`, 'x.y.z')).status).toBe(200);
    } finally {
      await withCookie.close();
      await without.close();
    }
  });
});
