import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { errorCodes } from '../../kit/graphql.ts';
import { startSessionWebhook, type SessionWebhook } from '../../kit/identity.ts';
import { scrape, total } from '../../kit/metrics.ts';
import { freePort } from '../../kit/ports.ts';
import { classroomActivityPath, errorBody, unauthorizedBody } from '../../kit/rest.ts';

// The platform's session cookie, resolved by its session webhook (docs/identity.md): who holds it, no
// session (anonymous), or the webhook unavailable (503, but anonymous for what anyone may read).

const COOKIE = '_platform_session';
const LESSONS_ORIGIN = 'https://lessons.school.test';

let webhook: SessionWebhook;
let gateway: Gateway;

beforeAll(async () => {
  webhook = await startSessionWebhook(COOKIE);
  gateway = await startGateway({
    AUTH_SESSION_WEBHOOK_URL: webhook.url,
    AUTH_SESSION_COOKIE: COOKIE,
    AUTH_SESSION_WEBHOOK_TIMEOUT: '300ms',
    CORS_ORIGINS: LESSONS_ORIGIN,
  });
});
afterAll(async () => {
  await gateway?.close();
  await webhook?.close();
});

let cookies = 0;
/** A session cookie value the webhook answers with `answer` (a new value each time: nothing cached yet). */
function session(answer: Parameters<SessionWebhook['answers']['set']>[1]): string {
  const value = `s${(cookies += 1)}-${Math.random().toString(36).slice(2)}%3D%3D`;
  webhook.answers.set(value, answer);
  return value;
}
const withCookie = (value: string, extra: Record<string, string> = {}) => ({
  headers: { cookie: `theme=dark; ${COOKIE}=${value}; other=1`, ...extra },
});
const studentNames = (value: string, extra?: Record<string, string>) =>
  gateway.rest('GET', classroomActivityPath('student_names'), withCookie(value, extra));
const publicRead = (value: string) => gateway.rest('GET', `/api/v1/activities/${uids.lesson}`, withCookie(value));

describe('the session webhook', () => {
  it('200 with a user: that user, as the webhook was asked with that one cookie and nothing else', async () => {
    const value = session({ status: 200, body: { userId: ids.owner } });
    const calls = webhook.calls.length;
    const answer = await studentNames(value, { authorization: '' });
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body)).toHaveLength(3);
    expect(webhook.calls.length - calls).toBe(1);
    const call = webhook.calls.at(-1)!;
    expect(call.cookie).toBe(`${COOKIE}=${value}`);
    expect(call.authorization).toBeUndefined();
    const viewer = await gateway.rest('POST', '/graphql', {
      body: { query: '{ viewer { id } }' },
      headers: { cookie: `${COOKIE}=${value}`, 'content-type': 'application/json' },
    });
    expect(viewer.body.data.viewer).toEqual({ id: String(ids.owner) });
  });

  it('200 with null, 401 or 403: no session, so anonymous for public reads and 401 where one must sign in', async () => {
    for (const answer of [{ status: 200, body: { userId: null } }, { status: 401 }, { status: 403 }]) {
      const value = session(answer);
      expect((await publicRead(value)).status).toBe(200);
      const guarded = await studentNames(value);
      expect(guarded.status).toBe(401);
      expect(guarded.body).toEqual(unauthorizedBody);
      expect(guarded.headers['www-authenticate']).toBeUndefined();
    }
  });

  it('a 500, a timeout, a redirect or a body that is not the JSON it should be: 503 where one must sign in, anonymous for public reads', async () => {
    const outages = [
      { status: 500 },
      { status: 200, body: { userId: 1 }, delayMs: 1_000 },
      { status: 302, headers: { location: 'https://platform.school.test/login' } },
      { status: 200, body: '<html>sign in</html>' },
      { status: 200, body: { user: 1 } },
    ];
    for (const outage of outages) {
      const value = session(outage);
      const guarded = await studentNames(value);
      expect(guarded.status, JSON.stringify(outage)).toBe(503);
      expect(guarded.body).toEqual(errorBody('unavailable'));
      expect(guarded.headers['retry-after']).toBeDefined();
      expect((await publicRead(value)).status).toBe(200);
    }
    const graphql = await gateway.rest('POST', '/graphql', {
      body: { query: `mutation { publishEdition { user { id } } }` },
      headers: { cookie: `${COOKIE}=${session({ status: 500 })}`, 'content-type': 'application/json' },
    });
    expect(graphql.status).toBe(503);
    expect(errorCodes(graphql.body)).toEqual(['UNAVAILABLE']);
  });

  it('remembers an answer for maxAge when shorter than the TTL, and a "no session" as long; a user id it does not have is 401', async () => {
    const value = session({ status: 200, body: { userId: ids.owner, maxAge: 1 } });
    const calls = webhook.calls.length;
    await studentNames(value);
    await studentNames(value);
    expect(webhook.calls.length - calls).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await studentNames(value);
    expect(webhook.calls.length - calls).toBe(2);
    const nobody = session({ status: 200, body: { userId: null } });
    await studentNames(nobody);
    await studentNames(nobody);
    expect(webhook.calls.length - calls).toBe(3);
    expect((await studentNames(session({ status: 200, body: { userId: 424_242 } }))).status).toBe(401);
  });

  it('20 concurrent requests with one uncached cookie make one call', async () => {
    const value = session({ status: 200, body: { userId: ids.owner }, delayMs: 100 });
    const calls = webhook.calls.length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => studentNames(value)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(webhook.calls.length - calls).toBe(1);
  });
});

describe('AUTH_SESSION_CACHE_TTL', () => {
  it('keeps an answer that long (a longer maxAge does not lengthen it), and 0 keeps none; authentications are counted', async () => {
    const port = await freePort();
    const short = await startGateway({
      AUTH_SESSION_WEBHOOK_URL: webhook.url,
      AUTH_SESSION_COOKIE: COOKIE,
      // Long enough that the second request arrives within it on a loaded machine.
      AUTH_SESSION_CACHE_TTL: '3s',
      METRICS_PORT: String(port),
    });
    const off = await startGateway({ AUTH_SESSION_WEBHOOK_URL: webhook.url, AUTH_SESSION_COOKIE: COOKIE, AUTH_SESSION_CACHE_TTL: '0' });
    try {
      const value = session({ status: 200, body: { userId: ids.owner, maxAge: 60 } });
      const ask = (on: Gateway) => on.rest('GET', classroomActivityPath('student_names'), withCookie(value));
      const calls = webhook.calls.length;
      expect((await ask(short)).status).toBe(200);
      await ask(short);
      expect(webhook.calls.length - calls).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 3_100));
      await ask(short);
      expect(webhook.calls.length - calls).toBe(2);
      await ask(off);
      await ask(off);
      expect(webhook.calls.length - calls).toBe(4);
      await short.rest('GET', classroomActivityPath('student_names'), withCookie(session({ status: 500 })));
      await short.rest('GET', classroomActivityPath('student_names'), { token: 'wrong' });
      const samples = await scrape(`http://127.0.0.1:${port}/metrics`);
      expect(total(samples, 'authentications_total', { method: 'session', outcome: 'success' })).toBe(3);
      expect(total(samples, 'authentications_total', { method: 'session', outcome: 'unavailable' })).toBe(1);
      expect(total(samples, 'authentications_total', { method: 'token', outcome: 'invalid' })).toBe(1);
    } finally {
      await short.close();
      await off.close();
    }
  });
});

describe('cookies are ambient credentials', () => {
  it('a cookie-only simple POST to /graphql is refused as a possible CSRF', async () => {
    const value = session({ status: 200, body: { userId: ids.owner } });
    const answer = await gateway.rest('POST', '/graphql', {
      payload: JSON.stringify({ query: 'mutation { publishEdition { user { id } } }' }),
      headers: { cookie: `${COOKIE}=${value}`, 'content-type': 'text/plain' },
    });
    expect(answer.status).toBe(400);
    expect(errorCodes(answer.body)).toEqual(['BAD_REQUEST']);
  });

  it('a REST change authenticated by a cookie from a foreign Origin is 403 and changes nothing; from the lessons client’s, it runs', async () => {
    const value = session({ status: 200, body: { userId: ids.owner } });
    const unpin = (origin: string) => gateway.rest('PUT', classroomActivityPath('unpin_and_lock_activity'), withCookie(value, { origin }));
    const before = await gateway.snapshot();
    const foreign = await unpin('https://evil.test');
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(errorBody('forbidden'));
    expect(await gateway.snapshot()).toBe(before);
    const allowed = await unpin(LESSONS_ORIGIN);
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body).toBe(false);
    // A Bearer token is not ambient: no Origin rule for it.
    const bearer = await gateway.rest('PUT', classroomActivityPath('unpin_and_lock_activity'), {
      token: tokens.owner,
      headers: { origin: 'https://evil.test' },
    });
    expect(bearer.status).toBe(200);
  });
});

describe('what is logged', () => {
  it('never a token, a cookie or a JWT: the request line says who, or which check failed', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp({ config: { ...gateway.config, logLevel: 'info' }, database: gateway.database, logStream });
    try {
      const good = session({ status: 200, body: { userId: ids.owner } });
      const down = session({ status: 500 });
      for (const [value, authorization] of [
        [good, undefined],
        [down, undefined],
        ['unknown', `Bearer ${tokens.owner}`],
        ['unknown', 'Bearer wrong-token-secret'],
      ] as const)
        await app.inject({
          method: 'GET',
          url: classroomActivityPath('student_names'),
          headers: { cookie: `${COOKIE}=${value}`, ...(authorization ? { authorization } : {}) },
        });
      const text = lines.join('');
      for (const secret of [good, down, tokens.owner, 'wrong-token-secret']) expect(text).not.toContain(secret);
      const requests = lines.map((line) => JSON.parse(line) as Record<string, any>).filter((line) => line.msg === 'request');
      expect(requests.map((line) => [line.userId, line.auth])).toEqual([
        [ids.owner, { method: 'session' }],
        [undefined, { method: 'session', failed: 'status 500' }],
        [ids.owner, { method: 'token' }],
        [undefined, { method: 'token', failed: 'unknown token' }],
      ]);
    } finally {
      await app.close();
    }
  });
});
