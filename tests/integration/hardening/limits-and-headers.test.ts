import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens } from '../../kit/fixture.ts';
import type { Lifecycle } from '../../../src/http/drain.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';

// Rate limit per token (per IP when anonymous), security headers, and the drain's 503s, over HTTP.

let gateway: Gateway;
const lifecycle: Lifecycle = { leaving: false, draining: false };
beforeAll(async () => {
  gateway = await startGateway({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '1 minute' }, { lifecycle });
  await gateway.reset();
});
afterAll(() => gateway?.close());

const activity = '/api/v1/activities/uids_and_flags';
const get = (url: string, { ip = '10.0.0.1', token }: { ip?: string; token?: string } = {}) =>
  gateway.app.inject({ method: 'GET', url, remoteAddress: ip, headers: token ? { authorization: `Bearer ${token}` } : {} });
const postViewer = (ip: string, token?: string) =>
  gateway.app.inject({
    method: 'POST',
    url: '/graphql',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: JSON.stringify({ query: '{ viewer { id } }' }),
  });

describe('rate limit', () => {
  it('REST: anonymous callers are limited per IP, with the meta envelope and Retry-After', async () => {
    for (let i = 0; i < 3; i += 1) expect((await get(activity, { ip: '10.0.0.1' })).statusCode).toBe(200);
    const limited = await get(activity, { ip: '10.0.0.1' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ meta: { status: 'rate_limited', message: expect.stringMatching(/retry in/), errors: null } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another IP has its own allowance; the probes are never limited.
    expect((await get(activity, { ip: '10.0.0.2' })).statusCode).toBe(200);
    expect((await get('/healthz', { ip: '10.0.0.1' })).statusCode).toBe(200);
    expect((await get('/readyz', { ip: '10.0.0.1' })).statusCode).toBe(200);
  });

  it('GraphQL: signed-in callers are limited per token, whatever their IP, with the same envelope', async () => {
    for (let i = 0; i < 3; i += 1) expect((await postViewer(`10.1.0.${i}`, tokens.owner)).statusCode).toBe(200);
    const limited = await postViewer('10.1.0.9', tokens.owner);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().meta.status).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBeDefined();
    // Another token from the same IP, and the same IP anonymously, are not affected.
    expect((await postViewer('10.1.0.9', tokens.coteacher)).statusCode).toBe(200);
    expect((await postViewer('10.1.0.9')).statusCode).toBe(200);
  });
});

describe('security headers', () => {
  it('every JSON answer forbids framing, sniffing and any active content', async () => {
    for (const response of [
      await get('/api/v1/activities/10', { ip: '10.2.0.1' }),
      await postViewer('10.2.0.2'),
      await get('/nowhere', { ip: '10.2.0.3' }),
    ]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      );
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('the playground page may load from this host only', async () => {
    const page = await gateway.app.inject({ method: 'GET', url: '/graphql', remoteAddress: '10.2.0.4', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/https?:|\*/);
  });
});

describe('leaving (set by main on SIGTERM, for SHUTDOWN_DELAY)', () => {
  it('/readyz says draining at once, every other request is still served, each answer closing its connection', async () => {
    lifecycle.leaving = true;
    try {
      const ready = await get('/readyz', { ip: '10.4.0.1' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'draining' });
      const rest = await get('/api/v1/activities/10', { ip: '10.4.0.1' });
      expect(rest.statusCode).toBe(200);
      expect(rest.headers.connection).toBe('close');
      const viewer = await postViewer('10.4.0.1');
      expect(viewer.statusCode).toBe(200);
      expect(viewer.json()).toEqual({ data: { viewer: null } });
      expect((await get('/healthz', { ip: '10.4.0.1' })).statusCode).toBe(200);
    } finally {
      lifecycle.leaving = false;
    }
    expect((await get('/readyz', { ip: '10.4.0.1' })).statusCode).toBe(200);
  });
});

describe('draining (set by main on SIGTERM)', () => {
  it('/readyz says draining, requests get 503 unavailable, /healthz still answers', async () => {
    lifecycle.draining = true;
    try {
      const ready = await get('/readyz', { ip: '10.3.0.1' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'draining' });
      const rest = await get('/api/v1/activities/10', { ip: '10.3.0.1' });
      expect(rest.statusCode).toBe(503);
      expect(rest.json()).toEqual({ meta: { status: 'unavailable', message: expect.any(String), errors: null } });
      expect(rest.headers.connection).toBe('close');
      expect((await postViewer('10.3.0.1')).statusCode).toBe(503);
      expect((await get('/healthz', { ip: '10.3.0.1' })).statusCode).toBe(200);
    } finally {
      lifecycle.draining = false;
    }
    expect((await get('/readyz', { ip: '10.3.0.1' })).statusCode).toBe(200);
  });
});
