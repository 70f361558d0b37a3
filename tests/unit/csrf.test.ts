import { describe, expect, it } from 'vitest';
import { refusedAsCsrf, refusedAsCsrfOnStream } from '../../src/graphql/csrf.ts';

// Which /graphql and /graphql/stream requests a browser could forge with credentials of its own (src/graphql/csrf.ts).

const request = (method: string, headers: Record<string, string> = {}) => ({ method, headers });

describe('refusedAsCsrf', () => {
  it('serves a GET with no credentials, or with a Bearer token, with no special header', () => {
    expect(refusedAsCsrf(request('GET'))).toBe(false);
    expect(refusedAsCsrf(request('GET', { authorization: 'Bearer t' }))).toBe(false);
    expect(refusedAsCsrf(request('GET', { cookie: '   ' }))).toBe(false);
  });

  it('refuses a GET that may carry ambient credentials (Basic, another scheme, a cookie) unless preflighted', () => {
    expect(refusedAsCsrf(request('GET', { authorization: 'Basic dDo=' }))).toBe(true);
    expect(refusedAsCsrf(request('GET', { authorization: 'Digest x' }))).toBe(true);
    expect(refusedAsCsrf(request('GET', { cookie: 'session=1' }))).toBe(true);
    expect(refusedAsCsrf(request('GET', { cookie: 'session=1', 'apollo-require-preflight': 'true' }))).toBe(false);
  });

  it('refuses a POST a form could send (no content type, or a simple one), whatever its credentials', () => {
    expect(refusedAsCsrf(request('POST'))).toBe(true);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'TEXT/PLAIN;charset=utf-8'])
      expect(refusedAsCsrf(request('POST', { 'content-type': type, authorization: 'Bearer t' }))).toBe(true);
  });

  it('serves a POST a browser must have preflighted: a JSON content type, or a non-empty preflight header', () => {
    expect(refusedAsCsrf(request('POST', { 'content-type': 'application/json' }))).toBe(false);
    expect(refusedAsCsrf(request('POST', { 'content-type': 'text/plain', 'apollo-require-preflight': '1' }))).toBe(false);
    expect(refusedAsCsrf(request('POST', { 'content-type': 'text/plain', 'x-apollo-operation-name': 'Q' }))).toBe(false);
    expect(refusedAsCsrf(request('POST', { 'content-type': 'text/plain', 'apollo-require-preflight': '' }))).toBe(true);
  });
});

describe('refusedAsCsrfOnStream', () => {
  const own = 'http://gateway.test';
  const lessons = 'https://lessons.school.test';
  const stream = (method: string, headers: Record<string, string> = {}) => ({
    method,
    headers,
    protocol: 'http' as const,
    host: 'gateway.test',
  });
  const refused = (method: string, headers: Record<string, string> = {}) => refusedAsCsrfOnStream(stream(method, headers), [lessons]);

  it('lets a cookie GET through when the browser says where its page is: the gateway’s own origin or CORS_ORIGINS, or same-origin', () => {
    expect(refused('GET', { cookie: 's=1', origin: own })).toBe(false);
    expect(refused('GET', { cookie: 's=1', origin: lessons })).toBe(false);
    expect(refused('GET', { cookie: 's=1', 'sec-fetch-site': 'same-origin' })).toBe(false);
  });

  it('refuses a cookie GET from another origin, or that no browser vouches for', () => {
    expect(refused('GET', { cookie: 's=1' })).toBe(true);
    expect(refused('GET', { cookie: 's=1', origin: 'https://evil.test' })).toBe(true);
    expect(refused('GET', { cookie: 's=1', 'sec-fetch-site': 'same-site' })).toBe(true);
    // An Origin that is not trusted outweighs the fetch metadata.
    expect(refused('GET', { cookie: 's=1', origin: 'https://evil.test', 'sec-fetch-site': 'same-origin' })).toBe(true);
  });

  it('is /graphql’s rule otherwise: a GET without ambient credentials goes on, a POST must be preflighted wherever it comes from', () => {
    expect(refused('GET', { authorization: 'Bearer t' })).toBe(false);
    expect(refused('POST', { cookie: 's=1', 'content-type': 'application/json' })).toBe(false);
    expect(refused('POST', { cookie: 's=1', 'content-type': 'text/plain', origin: lessons })).toBe(true);
  });
});
