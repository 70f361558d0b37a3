import { describe, expect, it } from 'vitest';
import { claimAt, looksLikeJwt } from '../../src/auth/jwt.ts';
import { loadConfig } from '../../src/config.ts';

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
    refused({ ...jwtOn, AUTH_JWT_ALGORITHMS: 'RS256,HS256' }, /AUTH_JWT_ALGORITHMS: HS256 cannot be verified with public keys/);
    refused(
      { ...jwtOn, AUTH_JWT_JWKS_URL: undefined, AUTH_JWT_KEY: secret, AUTH_JWT_ALGORITHMS: 'RS256' },
      /RS256 cannot be verified with a shared secret/,
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
