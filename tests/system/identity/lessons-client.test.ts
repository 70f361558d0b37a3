import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumThere, launchChromium, SCHOOL_SITE } from '../../kit/chromium.ts';
import { ids, names, uids } from '../../kit/fixture.ts';
import { startSessionWebhook, type SessionWebhook } from '../../kit/identity.ts';
import { startListeningGateway, type ListeningGateway } from '../../kit/live.ts';

// The old lessons client, as it signs in (docs/identity.md): a page served from another origin of the same
// site, calling the gateway with `credentials: 'include'` and the platform's session cookie, no token
// anywhere; it reads the lesson, follows it over a WebSocket the same cookie signs in, and finishes it.

const COOKIE = '_platform_session';
const SESSION = 'teacher-session-value';
// graphql-ws's browser build, as a page would load it (its package exports no path to it: found beside its package.json).
const graphqlWs = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve('graphql-ws/package.json')), 'umd/graphql-ws.min.js'),
  'utf8',
);

/** The lessons client's page: what the real client does, in plain browser JavaScript. */
const page = (api: string) => `<!doctype html><meta charset="utf-8"><title>Lessons</title>
<script>${graphqlWs}</script>
<script>
  window.results = {};
  const lesson = ${ids.classroomActivity};
  const api = ${JSON.stringify(api)};
  (async () => {
    const get = async (path) => { const r = await fetch(api + path, { credentials: 'include' }); return { status: r.status, body: await r.json() }; };
    results.studentNames = await get('/api/v1/classroom_activities/' + lesson + '/student_names');
    results.teacherAndClassroom = await get('/api/v1/classroom_activities/' + lesson + '/teacher_and_classroom_name');
    const client = graphqlWs.createClient({ url: api.replace(/^http/, 'ws') + '/graphql', retryAttempts: 0 });
    const heard = new Promise((resolve, reject) => client.subscribe(
      { query: 'subscription ($id: ID!) { lessonEvents(classroomActivityId: $id) { kind followUpUrl } }', variables: { id: String(lesson) } },
      { next: (value) => resolve(value), error: reject, complete: () => {} }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const form = new URLSearchParams({ json: JSON.stringify({ follow_up: true, concept_results: [
      { activity_session_uid: ${JSON.stringify(uids.sessions.ben)}, concept_uid: ${JSON.stringify(uids.concepts.parallel)},
        question_type: 'lessons-slide', metadata: { correct: 1, attemptNumber: 1, questionNumber: 1 } }] }) });
    const finished = await fetch(api + '/api/v1/classroom_activities/' + lesson + '/finish_lesson', { method: 'PUT', credentials: 'include', body: form });
    results.finish = { status: finished.status, body: await finished.json() };
    results.event = await heard;
    results.done = true;
  })().catch((error) => { results.error = String(error && error.message || error); results.done = true; });
</script>`;

async function serve(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

describe.skipIf(!chromiumThere)(
  `the lessons client signed in by the platform's cookie, in Chromium${chromiumThere ? '' : ` (needs ${CHROMIUM}): skipped`}`,
  () => {
    let webhook: SessionWebhook;
    let gateway: ListeningGateway;
    let lessons: Server;
    let browser: Browser;
    let lessonsOrigin: string;
    let api: string;

    beforeAll(async () => {
      webhook = await startSessionWebhook(COOKIE);
      webhook.answers.set(SESSION, { status: 200, body: { userId: ids.owner } });
      lessons = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page(api)));
      lessonsOrigin = `http://lessons.school.test:${await serve(lessons)}`;
      gateway = await startListeningGateway({
        AUTH_SESSION_WEBHOOK_URL: webhook.url,
        AUTH_SESSION_COOKIE: COOKIE,
        CORS_ORIGINS: lessonsOrigin,
      });
      api = `http://api.school.test:${new URL(gateway.wsUrl).port}`;
      browser = await launchChromium(SCHOOL_SITE);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await gateway?.close();
      await webhook?.close();
      lessons?.closeAllConnections();
      lessons?.close();
    });

    it('reads the lesson, follows it and finishes it with the session cookie alone; the FINISHED event carries the follow-up URL', async () => {
      const context = await browser.newContext();
      // The platform signed the teacher in: its session cookie, for the whole site.
      await context.addCookies([{ name: COOKIE, value: SESSION, domain: '.school.test', path: '/', httpOnly: true, sameSite: 'Lax' }]);
      const tab = await context.newPage();
      await tab.goto(`${lessonsOrigin}/lessons/${ids.classroomActivity}`);
      await tab.waitForFunction(() => (globalThis as unknown as { results: { done?: boolean } }).results.done === true, undefined, {
        timeout: 30_000,
      });
      const results = await tab.evaluate(() => (globalThis as unknown as { results: Record<string, unknown> }).results);
      expect(results.error).toBeUndefined();
      expect(results.studentNames).toEqual({
        status: 200,
        body: { [uids.sessions.ben]: names.ben, [uids.sessions.chloe]: names.chloe, [uids.sessions.dev]: names.dev },
      });
      expect(results.teacherAndClassroom).toEqual({ status: 200, body: { teacher: names.owner, classroom: names.classroom } });
      const finish = results.finish as { status: number; body: { follow_up_url: string } };
      expect(finish.status).toBe(200);
      expect(finish.body.follow_up_url).toMatch(/\/teachers\/classroom_activities\/\d+\/activity_from_classroom_activity$/);
      expect(results.event).toEqual({ data: { lessonEvents: { kind: 'FINISHED', followUpUrl: finish.body.follow_up_url } } });
      // The gateway asked the platform with that one cookie; no token was in the page.
      expect(webhook.calls.every((call) => call.cookie === `${COOKIE}=${SESSION}`)).toBe(true);
      await context.close();
    });
  },
);
