import { describe, expect, it } from 'vitest';
import { ownTokenKey, readCredentials } from '../../src/auth/credentials.ts';

// How a token is read from an Authorization header (docs/contract.md, Who may do what).

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('readCredentials', () => {
  it('reads no credentials from an absent or blank header', () => {
    expect(readCredentials(undefined)).toEqual({ kind: 'none' });
    expect(readCredentials('')).toEqual({ kind: 'none' });
    expect(readCredentials('   ')).toEqual({ kind: 'none' });
  });

  it('reads a Bearer token, whatever the scheme case, and around spaces', () => {
    expect(readCredentials('Bearer abc.def')).toEqual({ kind: 'token', token: 'abc.def', scheme: 'bearer' });
    expect(readCredentials('bearer abc')).toEqual({ kind: 'token', token: 'abc', scheme: 'bearer' });
    expect(readCredentials('  BEARER   abc  ')).toEqual({ kind: 'token', token: 'abc', scheme: 'bearer' });
  });

  it('reads Basic with the token as the user name and an empty password, with or without the colon', () => {
    expect(readCredentials(basic('tok:'))).toEqual({ kind: 'token', token: 'tok', scheme: 'basic' });
    expect(readCredentials(basic('tok'))).toEqual({ kind: 'token', token: 'tok', scheme: 'basic' });
  });

  it('calls malformed: a password given, an empty user, another scheme, a scheme alone, two values', () => {
    expect(readCredentials(basic('tok:secret'))).toEqual({ kind: 'malformed' });
    expect(readCredentials(basic(':'))).toEqual({ kind: 'malformed' });
    expect(readCredentials('Digest abc')).toEqual({ kind: 'malformed' });
    expect(readCredentials('Bearer')).toEqual({ kind: 'malformed' });
    expect(readCredentials('Bearer a b')).toEqual({ kind: 'malformed' });
  });
});

describe('ownTokenKey', () => {
  it('is a fixed-length hash that never holds the token, the same for the same token', () => {
    const key = ownTokenKey('lgw_secret-token');
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(key).not.toContain('secret');
    expect(ownTokenKey('lgw_secret-token')).toBe(key);
    expect(ownTokenKey('lgw_other-token')).not.toBe(key);
  });
});
