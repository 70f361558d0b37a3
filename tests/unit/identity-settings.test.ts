import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { claimAt, looksLikeJwt } from '../../src/auth/jwt.ts';
import { loadConfig } from '../../src/config.ts';
import { platformCertificate } from '../kit/identity.ts';

// The AUTH_* settings (src/auth/identity-settings.ts) and the small rules of JWTs that need no key.

const jwtOn = {
  AUTH_JWT_JWKS_URL: 'https://idp.school.test/jwks.json',
  AUTH_JWT_ISSUER: 'https://idp.school.test',
  AUTH_JWT_AUDIENCE: 'lessons',
};
const secret = 'x'.repeat(32);

describe('identity settings', () => {
  it('are all off by default', () => {
    expect(loadConfig({}).identity).toEqual({ jwt: undefined, jwtCookie: undefined, session: undefined });
  });

  it('turn JWTs on with a JWKS: the public-key algorithms by default, lists read, the skew in seconds', () => {
    expect(
      loadConfig({ ...jwtOn, AUTH_JWT_AUDIENCE: 'lessons, reports', AUTH_JWT_CLOCK_SKEW: '10s', AUTH_JWT_COOKIE: 'platform_jwt' }).identity,
    ).toEqual({
      jwt: {
        keys: { jwksUrl: 'https://idp.school.test/jwks.json', timeoutMs: 2_000 },
        issuers: ['https://idp.school.test'],
        audiences: ['lessons', 'reports'],
        algorithms: ['RS256', 'ES256', 'EdDSA'],
        clockSkewSeconds: 10,
        userClaim: 'sub',
      },
      jwtCookie: 'platform_jwt',
      session: undefined,
    });
    expect(loadConfig({ ...jwtOn, AUTH_JWT_JWKS_URL: undefined, AUTH_JWT_KEY: secret }).identity.jwt?.algorithms).toEqual(['HS256']);
  });

  it('stop the start, naming the variable, for what cannot work', () => {
    const refused = (env: Record<string, string | undefined>, message: RegExp) => expect(() => loadConfig(env)).toThrow(message);
    refused({ AUTH_JWT_JWKS_URL: jwtOn.AUTH_JWT_JWKS_URL }, /AUTH_JWT_ISSUER is required[\s\S]*AUTH_JWT_AUDIENCE is required/);
    refused({ ...jwtOn, AUTH_JWT_KEY: secret }, /AUTH_JWT_JWKS_URL and AUTH_JWT_KEY are both set/);
    refused({ ...jwtOn, AUTH_JWT_JWKS_URL: undefined, AUTH_JWT_KEY: 'short' }, /AUTH_JWT_KEY: a shared secret must be at least 32 bytes/);
    refused(
      { ...jwtOn, AUTH_JWT_JWKS_URL: undefined, AUTH_JWT_KEY: '-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----' },
      /AUTH_JWT_KEY is not a PEM public key/,
    );
    refused({ ...jwtOn, AUTH_JWT_ALGORITHMS: 'RS256,none' }, /AUTH_JWT_ALGORITHMS="RS256,none"/);
    refused({ ...jwtOn, AUTH_JWT_ALGORITHMS: 'none' }, /AUTH_JWT_ALGORITHMS="none"/);
    refused(
      { ...jwtOn, AUTH_JWT_ALGORITHMS: 'HS256,HS512' },
      /AUTH_JWT_ALGORITHMS: none of HS256, HS512 verifies a token with the key set of AUTH_JWT_JWKS_URL/,
    );
    refused(
      { ...jwtOn, AUTH_JWT_JWKS_URL: undefined, AUTH_JWT_KEY: secret, AUTH_JWT_ALGORITHMS: 'RS256,ES256' },
      /AUTH_JWT_ALGORITHMS: none of RS256, ES256 verifies a token with AUTH_JWT_KEY \(a shared secret\): it verifies HS256, HS384, HS512/,
    );
    refused({ ...jwtOn, AUTH_JWT_JWKS_URL: 'ftp://idp.test/keys' }, /AUTH_JWT_JWKS_URL="ftp/);
    refused({ AUTH_JWT_COOKIE: 'jwt' }, /AUTH_JWT_COOKIE is set, but JWTs are off/);
    refused({ AUTH_SESSION_WEBHOOK_URL: 'http://platform.test/session' }, /AUTH_SESSION_COOKIE is required with AUTH_SESSION_WEBHOOK_URL/);
    refused({ AUTH_SESSION_COOKIE: '_session' }, /AUTH_SESSION_COOKIE is set, but AUTH_SESSION_WEBHOOK_URL is not/);
    refused(
      { AUTH_SESSION_WEBHOOK_URL: 'http://p.test/s', AUTH_SESSION_COOKIE: 'a b' },
      /AUTH_SESSION_COOKIE="a b": expected a cookie name/,
    );
    refused(
      { AUTH_SESSION_WEBHOOK_URL: 'http://p.test/s', AUTH_SESSION_COOKIE: 's', AUTH_SESSION_CACHE_TTL: '2 hours' },
      /AUTH_SESSION_CACHE_TTL/,
    );
  });

  it('turn the session webhook on with its cookie, its timeout and its cache TTL', () => {
    expect(
      loadConfig({ AUTH_SESSION_WEBHOOK_URL: 'http://platform.test/session', AUTH_SESSION_COOKIE: '_platform_session' }).identity.session,
    ).toEqual({
      url: 'http://platform.test/session',
      cookieName: '_platform_session',
      timeoutMs: 2_000,
      cacheTtlMs: 30_000,
    });
  });
});

describe('AUTH_JWT_KEY and AUTH_JWT_ALGORITHMS', () => {
  const withKey = (key: string, algorithms?: string) =>
    loadConfig({ ...jwtOn, AUTH_JWT_JWKS_URL: undefined, AUTH_JWT_KEY: key, ...(algorithms ? { AUTH_JWT_ALGORITHMS: algorithms } : {}) });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = (key: KeyObject, type: 'spki' | 'pkcs1' | 'pkcs8') =>
    key.export({ type, format: 'pem' } as { type: 'spki'; format: 'pem' }) as string;

  it('takes a public key as SPKI, PKCS#1 or an X.509 certificate (line breaks written \\n too), imported once at start', () => {
    const spki = pem(rsa.publicKey, 'spki');
    for (const key of [spki, spki.replace(/\n/g, '\\n'), pem(rsa.publicKey, 'pkcs1'), platformCertificate().certificate]) {
      const jwt = withKey(key).identity.jwt!;
      expect(jwt.keys).toEqual({ publicKey: expect.any(KeyObject) });
      expect((jwt.keys as { publicKey: KeyObject }).publicKey.type).toBe('public');
    }
    expect(withKey(spki, 'RS256,PS256').identity.jwt!.algorithms).toEqual(['RS256', 'PS256']);
    expect(withKey(secret).identity.jwt!.keys).toEqual({ secret: new TextEncoder().encode(secret) });
  });

  it('keeps only the listed algorithms the key can verify, and stops the start when none can, naming both settings', () => {
    const spki = pem(rsa.publicKey, 'spki');
    // The default list with an RSA key: RS256 (ES256 and EdDSA need other keys); the certificate's P-256 key: ES256.
    expect(withKey(spki).identity.jwt!.algorithms).toEqual(['RS256']);
    expect(withKey(platformCertificate().certificate).identity.jwt!.algorithms).toEqual(['ES256']);
    // A listed HMAC algorithm beside RS256: started, and a token naming HS256 is refused (never verified with the key as a secret).
    expect(withKey(spki, 'RS256,HS256').identity.jwt!.algorithms).toEqual(['RS256']);
    expect(loadConfig({ ...jwtOn, AUTH_JWT_ALGORITHMS: 'RS256,HS256' }).identity.jwt!.algorithms).toEqual(['RS256']);
    expect(withKey(secret, 'HS256,RS256,HS512').identity.jwt!.algorithms).toEqual(['HS256', 'HS512']);
    const p384 = pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey, 'spki');
    expect(() => withKey(p384)).toThrow(
      /AUTH_JWT_ALGORITHMS: none of RS256, ES256, EdDSA \(the default\) verifies a token with AUTH_JWT_KEY \(an EC P-384 public key\): it verifies ES384/,
    );
    expect(withKey(p384, 'ES384').identity.jwt!.algorithms).toEqual(['ES384']);
    expect(() => withKey(spki, 'HS256')).toThrow(
      /AUTH_JWT_ALGORITHMS: none of HS256 verifies a token with AUTH_JWT_KEY \(an RSA public key\)/,
    );
  });

  it('refuses, naming AUTH_JWT_KEY and never showing it, a private key, a key no algorithm verifies, and what is not a key', () => {
    const refused = (key: string, message: RegExp) => {
      let error: unknown;
      try {
        withKey(key);
      } catch (thrown) {
        error = thrown;
      }
      expect((error as Error)?.message).toMatch(message);
      expect((error as Error).message).not.toContain(key.includes('\n') ? key.split('\n')[1] : key);
    };
    const privateKey = /AUTH_JWT_KEY is a private key: a public key is expected/;
    refused(pem(rsa.privateKey, 'pkcs8'), privateKey);
    refused(pem(rsa.privateKey, 'pkcs1'), privateKey);
    refused(platformCertificate().privateKeyPem, privateKey);
    refused(
      pem(generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey, 'spki'),
      /AUTH_JWT_KEY is an RSA key of 1024 bits: at least 2048/,
    );
    refused(pem(generateKeyPairSync('ed448').publicKey, 'spki'), /AUTH_JWT_KEY is an ed448 public key, which no JWS algorithm/);
    refused(pem(generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).publicKey, 'spki'), /AUTH_JWT_KEY is an EC secp256k1 public key/);
    refused('-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----', /AUTH_JWT_KEY is not a PEM public key/);
    refused('-----BEGIN RSA PUBLIC KEY-----\nbm90IGEga2V5\n-----END RSA PUBLIC KEY-----', /AUTH_JWT_KEY is not a PEM public key/);
    refused('short-secret', /AUTH_JWT_KEY: a shared secret must be at least 32 bytes/);
  });
});

describe('JWT rules', () => {
  it('finds the user claim at a path: the longest claim name it starts with, then the keys inside', () => {
    const payload = {
      sub: '7',
      'https://example.org/claims': { user_id: 12, nested: { id: '13' } },
      'https://example.org/claims.user_id': 99,
    };
    expect(claimAt(payload, 'sub')).toBe('7');
    expect(claimAt(payload, 'https://example.org/claims.user_id')).toBe(99);
    expect(claimAt({ 'https://example.org/claims': { user_id: 12 } }, 'https://example.org/claims.user_id')).toBe(12);
    expect(claimAt(payload, 'https://example.org/claims.nested.id')).toBe('13');
    expect(claimAt(payload, 'https://example.org/claims.missing.id')).toBeUndefined();
    expect(claimAt({ a: [1] }, 'a.0')).toBeUndefined();
    expect(claimAt(payload, 'nothing')).toBeUndefined();
  });

  it('tells a compact JWT from the gateway’s own tokens', () => {
    expect(looksLikeJwt('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln')).toBe(true);
    expect(looksLikeJwt('eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.')).toBe(true);
    expect(looksLikeJwt('lgw_AbC-dEf_123')).toBe(false);
    expect(looksLikeJwt('owner-token-0123456789abcdef')).toBe(false);
    expect(looksLikeJwt('a.b')).toBe(false);
  });
});
