import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumThere, launchChromium, SCHOOL_SITE } from '../../kit/chromium.ts';
import { startSessionWebhook, type SessionWebhook } from '../../kit/identity.ts';
import { waitFor } from '../../kit/live.ts';
import { freshDatabaseEnv, startServerProcess, stopServerProcesses, type ServerProcess } from '../../kit/server-process.ts';
import { tcpProxy } from '../../kit/tcp-proxy.ts';

// A browser's own EventSource following a lesson (docs/contract.md, Live lessons): a page of another origin of the site opens
// /graphql/stream with `withCredentials`, signed in by the platform's session cookie alone, and goes on
// following the lesson by itself across a restart of the server (the drain ends its stream; the browser
// reconnects, as it does on a dropped connection and never on an HTTP error), its Last-Event-ID bringing it
// what was committed while it was away, once.

const COOKIE = '_platform_session';
const SESSION = 'teacher-session-value';
/** The demo data's teacher (src/demo/seed.ts), whom the platform's session names. */
const DEMO_TEACHER = 1;
const FOLLOW = 'subscription Follow($id: ID!) { lessonEvents(classroomActivityId: $id) { kind classroomActivityId } }';

/** The page: an EventSource on the lesson, every message and state change kept in `window.seen`. */
const page = (streamUrl: string) => `<!doctype html><meta charset="utf-8"><title>Lesson</title>
<script>
  window.seen = { messages: [], opens: 0, errors: 0, closed: false };
  const source = new EventSource(${JSON.stringify(streamUrl)}, { withCredentials: true });
  source.onopen = () => { seen.opens += 1; };
  source.onerror = () => { seen.errors += 1; if (source.readyState === EventSource.CLOSED) seen.closed = true; };
  for (const type of ['next', 'complete'])
    source.addEventListener(type, (event) => seen.messages.push({ type, data: event.data ? JSON.parse(event.data) : null, lastEventId: event.lastEventId }));
</script>`;

type Seen = { messages: { type: string; data: any; lastEventId: string }[]; opens: number; errors: number; closed: boolean };

async function serve(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

describe.skipIf(!chromiumThere)(
  `a browser's EventSource with the platform's cookie, in Chromium${chromiumThere ? '' : ` (needs ${CHROMIUM}): skipped`}`,
  () => {
    let webhook: SessionWebhook;
    let lessons: Server;
    let browser: Browser;
    let lessonsOrigin: string;
    let streamUrl: string;

    beforeAll(async () => {
      webhook = await startSessionWebhook(COOKIE);
      webhook.answers.set(SESSION, { status: 200, body: { userId: DEMO_TEACHER } });
      lessons = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page(streamUrl)));
      lessonsOrigin = `http://lessons.school.test:${await serve(lessons)}`;
      browser = await launchChromium(SCHOOL_SITE);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await stopServerProcesses();
      await webhook?.close();
      lessons?.closeAllConnections();
      lessons?.close();
    });

    it('follows a lesson with the cookie alone, and after the server restarts gets what it missed once, then goes on', async () => {
      const database = await freshDatabaseEnv('lgw_test_event_source');
      const start = (demo: '0' | '1') =>
        startServerProcess({
          ...database,
          DEMO_DATA: demo,
          AUTH_SESSION_WEBHOOK_URL: webhook.url,
          AUTH_SESSION_COOKIE: COOKIE,
          CORS_ORIGINS: lessonsOrigin,
          SHUTDOWN_SPREAD: '0',
        });
      let server = await start('1');
      const token = /A demo teacher's token: (\S+)/.exec(server.output())?.[1];
      const lesson = /classroom_activities\/(\d+)\/student_names/.exec(server.output())?.[1];
      expect(token && lesson).toBeTruthy();
      // Where the browser connects: a proxy to the server, which refuses connections while it is stopped (as
      // the address of a server that is not there does), so that a change can be committed meanwhile.
      const proxy = tcpProxy(new URL(server.origin));
      const port = await proxy.start();
      const stream = new URL(`http://api.school.test:${port}/graphql/stream`);
      stream.searchParams.set('query', FOLLOW);
      stream.searchParams.set('variables', JSON.stringify({ id: lesson }));
      streamUrl = stream.toString();
      /**
       * A lesson change by the teacher's token (the page's own cookie is the platform's, not the test's); the
       * id of the event it committed.
       */
      const change = async (on: ServerProcess, mutation: 'launchLesson' | 'unpinAndLock'): Promise<string> => {
        const answer = await fetch(`${on.origin}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            query: `mutation Change($id: ID!) { ${mutation}(id: $id) { id lessonEventCursor } }`,
            variables: { id: lesson },
          }),
        });
        const { data } = (await answer.json()) as { data: Record<string, { id: string; lessonEventCursor: string }> };
        expect(data[mutation]?.id).toBe(lesson);
        return data[mutation]!.lessonEventCursor;
      };
      const started = (on: ServerProcess) => on.output().split('"msg":"subscription started"').length - 1;

      const context = await browser.newContext();
      // The platform signed the teacher in: its session cookie, for the whole site.
      await context.addCookies([{ name: COOKIE, value: SESSION, domain: '.school.test', path: '/', httpOnly: true, sameSite: 'Lax' }]);
      const tab: Page = await context.newPage();
      const seen = () => tab.evaluate(() => (globalThis as unknown as { seen: Seen }).seen);
      const kinds = async () =>
        (await seen()).messages.flatMap((message) => (message.type === 'next' ? [message.data.data.lessonEvents.kind] : []));
      await tab.goto(`${lessonsOrigin}/lessons/${lesson}`);
      await waitFor(() => started(server) === 1, 'the page subscribed', 30_000);
      const committed = [await change(server, 'launchLesson')];
      await waitFor(async () => (await kinds()).length === 1, 'LAUNCHED in the page', 10_000);

      // A restart: the drain ends the stream (`complete`); the browser keeps trying to reconnect.
      server.child.kill('SIGTERM');
      await waitFor(async () => (await seen()).messages.some((message) => message.type === 'complete'), 'the stream ended', 30_000);
      await proxy.stop();
      expect(await server.exited, server.output()).toBe(0);
      server = await start('0');
      // Committed before the page is back: the browser sends the last `id:` it got as Last-Event-ID, and
      // gets this event from the store, once.
      committed.push(await change(server, 'unpinAndLock'));
      expect(started(server)).toBe(0);
      proxy.retarget(new URL(server.origin));
      await proxy.start();
      await waitFor(() => started(server) === 1, 'the page subscribed again by itself', 30_000);
      await waitFor(async () => (await kinds()).length === 2, 'LOCKED in the page', 10_000);
      // And live again after it.
      committed.push(await change(server, 'launchLesson'));
      await waitFor(async () => (await kinds()).length === 3, 'LAUNCHED again in the page', 10_000);

      expect(await kinds()).toEqual(['LAUNCHED', 'LOCKED', 'LAUNCHED']);
      const { messages, opens, closed } = await seen();
      expect(messages.map((message) => message.type)).toEqual(['next', 'complete', 'next', 'next']);
      expect(messages.filter((message) => message.type === 'next').map((message) => message.lastEventId)).toEqual(committed);
      expect(opens).toBe(2);
      // The browser never gave up (as it would on an HTTP error).
      expect(closed).toBe(false);
      // The gateway asked the platform with that one cookie; no token was in the page.
      expect(webhook.calls.length).toBeGreaterThan(0);
      expect(webhook.calls.every((call) => call.cookie === `${COOKIE}=${SESSION}`)).toBe(true);
      await context.close();
      await proxy.stop();
    }, 120_000);
  },
);
