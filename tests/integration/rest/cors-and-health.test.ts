import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { tokens, uids } from '../../kit/fixture.ts';
import { classroomActivityPath, finishLessonPath, unauthorizedBody } from '../../kit/rest.ts';

// CORS for the lessons client, which calls cross-origin with credentials (docs/contract.md, REST routes),
// and the health routes (docs/contract.md, Running it).

const LESSONS_ORIGIN = 'https://lessons.example.org';
const OTHER_ORIGIN = 'https://evil.example.com';

describe('CORS with CORS_ORIGINS set', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({ CORS_ORIGINS: LESSONS_ORIGIN });
  });
  afterAll(() => gateway?.close());
  beforeEach(() => gateway.reset());

  it('lets the configured origin read a response, with credentials', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`, { headers: { origin: LESSONS_ORIGIN } });

    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(LESSONS_ORIGIN);
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
    expect(String(answer.headers.vary)).toMatch(/origin/i);
  });

  it.each([
    ['PUT', finishLessonPath()],
    ['PUT', classroomActivityPath('unpin_and_lock_activity')],
    ['POST', '/api/v1/published_edition'],
    ['DELETE', `/api/v1/activities/${uids.lonelyActivity}`],
  ])('answers a preflight for a credentialed %s %s from the configured origin', async (method, path) => {
    const answer = await gateway.rest('OPTIONS', path, {
      headers: {
        origin: LESSONS_ORIGIN,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization, content-type',
      },
    });

    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(300);
    expect(answer.headers['access-control-allow-origin']).toBe(LESSONS_ORIGIN);
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
    expect(String(answer.headers['access-control-allow-methods']).split(/\s*,\s*/)).toContain(method);
    expect(String(answer.headers['access-control-allow-headers']).toLowerCase()).toMatch(/\bauthorization\b/);
  });

  it('lets the browser keep a preflight for CORS_MAX_AGE (10 minutes by default), on REST and /graphql', async () => {
    for (const [method, path] of [
      ['PUT', finishLessonPath()],
      ['POST', '/graphql'],
    ] as const) {
      const answer = await gateway.rest('OPTIONS', path, {
        headers: { origin: LESSONS_ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' },
      });
      expect(answer.status, path).toBeLessThan(300);
      expect(answer.headers['access-control-max-age'], path).toBe('600');
    }
    const configured = await startGateway({ CORS_ORIGINS: LESSONS_ORIGIN, CORS_MAX_AGE: '2 hours' });
    try {
      const answer = await configured.rest('OPTIONS', finishLessonPath(), {
        headers: { origin: LESSONS_ORIGIN, 'access-control-request-method': 'PUT' },
      });
      expect(answer.headers['access-control-max-age']).toBe('7200');
    } finally {
      await configured.close();
    }
  });

  it('lets the configured origin read an error too', async () => {
    const answer = await gateway.rest('PUT', classroomActivityPath('unpin_and_lock_activity'), { headers: { origin: LESSONS_ORIGIN } });

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorizedBody);
    expect(answer.headers['access-control-allow-origin']).toBe(LESSONS_ORIGIN);
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
  });

  it('sends the CORS headers on a signed-in call from the configured origin', async () => {
    const answer = await gateway.rest('GET', classroomActivityPath('student_names'), {
      token: tokens.owner,
      headers: { origin: LESSONS_ORIGIN },
    });

    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(LESSONS_ORIGIN);
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
  });

  it('gives another origin no access-control-allow-origin header', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`, { headers: { origin: OTHER_ORIGIN } });

    expect(answer.status).toBe(200);
    expect(answer.headers).not.toHaveProperty('access-control-allow-origin');
  });

  it('gives another origin no access-control-allow-origin header on a preflight', async () => {
    const answer = await gateway.rest('OPTIONS', finishLessonPath(), {
      headers: { origin: OTHER_ORIGIN, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization' },
    });

    expect(answer.headers).not.toHaveProperty('access-control-allow-origin');
  });

  it('does not take an origin that merely starts like the configured one', async () => {
    const answer = await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`, {
      headers: { origin: `${LESSONS_ORIGIN}.evil.example.com` },
    });

    expect(answer.headers).not.toHaveProperty('access-control-allow-origin');
  });
});

describe('without CORS_ORIGINS, and the health routes', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway?.close());

  it('sends no access-control-allow-origin header to any origin by default', async () => {
    const answer = await gateway.rest('GET', '/api/v1/activities/uids_and_flags', { headers: { origin: LESSONS_ORIGIN } });

    expect(answer.status).toBe(200);
    expect(answer.headers).not.toHaveProperty('access-control-allow-origin');
  });

  it('GET /healthz answers 200 {"status":"ok"}', async () => {
    const answer = await gateway.rest('GET', '/healthz');

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 while the database answers', async () => {
    const answer = await gateway.rest('GET', '/readyz');

    expect(answer.status).toBe(200);
  });
});
