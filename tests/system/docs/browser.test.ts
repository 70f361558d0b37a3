import { mkdirSync } from 'node:fs';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumThere, launchChromium } from '../../kit/chromium.ts';
import { seedDemoData } from '../../../src/demo/seed.ts';
import { startListeningGateway, type ListeningGateway } from '../../kit/live.ts';
import { finishLessonPath } from '../../kit/rest.ts';

// Issue 5: the playground and the REST docs as a person sees them, in a real headless Chromium (Debian's
// `chromium`, driven by playwright-core; `.ci/run` installs it). The gateway listens on a real port with
// the demo data; every request the page makes is recorded (its WebSockets and event streams too), and one
// to any other host fails the test.
// Screenshots go to .tmp/browser/ (docs/playground.png in the README is one of them).

const SCREENSHOTS = '.tmp/browser';
const needsChromium = `needs Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)${chromiumThere ? '' : ': not there, skipped'}`;

let gateway: ListeningGateway;
let origin: string;
let teacherToken: string;
let classroomActivityId: number;
let browser: Browser;

/** A new page whose requests to any host but the gateway's are refused and remembered. */
async function openPage(path: string): Promise<{ page: Page; foreignRequests: string[]; pageErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const foreignRequests: string[] = [];
  const pageErrors: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    foreignRequests.push(url);
    return route.abort();
  });
  // WebSockets are not routed: one to another host is only recorded, which fails the test all the same.
  page.on('websocket', (socket) => {
    if (!socket.url().startsWith(`${origin.replace(/^http/, 'ws')}/`)) foreignRequests.push(socket.url());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const response = await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
  expect(response?.status()).toBe(200);
  return { page, foreignRequests, pageErrors };
}

/** The text of a GraphiQL editor (CodeMirror 5 keeps its instance on the element). */
const editorText = (page: Page, selector: string) =>
  page.$eval(`${selector} .CodeMirror`, (element) => (element as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue());

/**
 * Opens an example's tab and waits until GraphiQL has parsed its query: the operation name it sends is
 * set 100 ms after the editor changes (a debounce in @graphiql/react's query editor), so a run right after
 * the switch would still name the previous tab's operation.
 */
async function openTab(page: Page, operationName: string) {
  await page.getByRole('tab', { name: new RegExp(operationName) }).click();
  await page.waitForFunction(
    (name) => {
      // Runs in the page; the tests' tsconfig has no DOM types.
      const page = globalThis as unknown as {
        document: { querySelector(selector: string): { CodeMirror: { operationName?: string | null } } | null };
      };
      return page.document.querySelector('.graphiql-query-editor .CodeMirror')?.CodeMirror.operationName === name;
    },
    operationName,
    { timeout: 5_000 },
  );
}

/** Replaces the text of the Headers editor (its tab open). */
async function setHeaders(page: Page, headers: Record<string, string>) {
  await page.getByRole('button', { name: 'Headers' }).click();
  await page.$eval(
    '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror',
    (element, text) => (element as unknown as { CodeMirror: { setValue(text: string): void } }).CodeMirror.setValue(text),
    JSON.stringify(headers),
  );
}

async function runAndReadResponse(page: Page): Promise<any> {
  const before = await editorText(page, '.graphiql-response');
  await page.click('.graphiql-execute-button');
  await page.waitForFunction(
    (previous) => {
      // Runs in the page; the tests' tsconfig has no DOM types.
      const page = globalThis as unknown as {
        document: { querySelector(selector: string): { CodeMirror: { getValue(): string } } | null };
      };
      const element = page.document.querySelector('.graphiql-response .CodeMirror');
      const text = element?.CodeMirror.getValue() ?? '';
      return text.trim() !== '' && text !== previous;
    },
    before,
    { timeout: 15_000 },
  );
  return JSON.parse(await editorText(page, '.graphiql-response'));
}

/** The response pane's JSON once it shows a FINISHED event. */
async function finishedShown(page: Page): Promise<unknown> {
  await page.waitForFunction(
    () => {
      const page = globalThis as unknown as {
        document: { querySelector(selector: string): { CodeMirror: { getValue(): string } } | null };
      };
      return /"FINISHED"/.test(page.document.querySelector('.graphiql-response .CodeMirror')?.CodeMirror.getValue() ?? '');
    },
    undefined,
    { timeout: 15_000 },
  );
  return JSON.parse(await editorText(page, '.graphiql-response'));
}

/** The FINISHED event of the demo lesson, as the response pane shows it. */
const finishedEvent = (followUpUrl: string) => ({
  data: {
    lessonEvents: {
      id: expect.stringMatching(new RegExp(`^${classroomActivityId}-\\d{10}$`)),
      kind: 'FINISHED',
      classroomActivityId: String(classroomActivityId),
      locked: true,
      pinned: false,
      completed: true,
      followUpUrl,
      at: expect.any(String),
    },
  },
});

describe.skipIf(!chromiumThere)(`in a real browser (${needsChromium})`, () => {
  beforeAll(async () => {
    gateway = await startListeningGateway({ NODE_ENV: 'development', PLAYGROUND: '1' }, { empty: true });
    const demo = await seedDemoData(gateway.database.prisma);
    if (!demo) throw new Error('the demo data was not loaded on the fresh database');
    ({ teacherToken, classroomActivityId } = demo);
    origin = new URL('/', gateway.wsUrl.replace(/^ws/, 'http')).origin;
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  describe('the playground in a browser', () => {
    it('opens on the activity example, runs it against the demo data, then runs classroomActivity with a teacher token', async () => {
      const { page, foreignRequests, pageErrors } = await openPage('/graphql');
      await page.waitForSelector('.graphiql-execute-button', { timeout: 20_000 });
      expect(await editorText(page, '.graphiql-query-editor')).toContain('query Activity(');

      const activity = await runAndReadResponse(page);
      expect(activity.errors).toBeUndefined();
      expect(activity.data.activity).toMatchObject({ uid: '-KsL6d9-ij4oM7qMUZFm' });
      expect(typeof activity.data.activity.name).toBe('string');

      // The lesson screen's query: switch tab, put the demo teacher's token in the Headers editor, run.
      await openTab(page, 'ClassroomActivity');
      expect(await editorText(page, '.graphiql-query-editor')).toContain('query ClassroomActivity(');
      await setHeaders(page, { Authorization: `Bearer ${teacherToken}` });
      const lesson = await runAndReadResponse(page);
      expect(lesson.errors).toBeUndefined();
      expect(lesson.data.classroomActivity.id).toBe(String(classroomActivityId));
      expect(lesson.data.classroomActivity.sessions.length).toBeGreaterThan(0);
      expect(typeof lesson.data.classroomActivity.classroom.teacher.name).toBe('string');

      // The token is masked: the screenshot may end up in docs/.
      await page.screenshot({ path: `${SCREENSHOTS}/playground.png`, mask: [page.locator('.graphiql-editor-tool')] });
      expect(foreignRequests).toEqual([]);
      expect(pageErrors).toEqual([]);
    }, 60_000);
  });

  describe('a live lesson in the playground', () => {
    it('runs the lessonEvents example over WebSocket and shows the FINISHED event when the lesson ends through REST', async () => {
      const { page, foreignRequests, pageErrors } = await openPage('/graphql');
      const sockets: string[] = [];
      page.on('websocket', (socket) => sockets.push(socket.url()));
      await page.waitForSelector('.graphiql-execute-button', { timeout: 20_000 });
      await openTab(page, 'LessonEvents');
      expect(await editorText(page, '.graphiql-query-editor')).toContain('subscription LessonEvents(');
      await setHeaders(page, { Authorization: `Bearer ${teacherToken}` });

      // Run it: the subscription stays open (and the pane empty) until the lesson changes.
      const started = gateway.logs().filter((line) => line.msg === 'subscription started').length;
      await page.click('.graphiql-execute-button');
      await gateway.waitForLog('subscription started', started + 1);
      expect(sockets).toEqual([`${origin.replace(/^http/, 'ws')}/graphql`]);

      // The teacher ends the lesson through the REST route, as the lesson app does.
      const finish = await gateway.rest('PUT', finishLessonPath(classroomActivityId), { token: teacherToken, body: { follow_up: true } });
      expect(finish.status).toBe(200);
      expect(await finishedShown(page)).toEqual(finishedEvent(finish.body.follow_up_url));
      expect(finish.body.follow_up_url).toMatch(/\/activity_from_classroom_activity$/);

      await page.screenshot({ path: `${SCREENSHOTS}/playground-live.png`, mask: [page.locator('.graphiql-editor-tool')] });
      expect(foreignRequests).toEqual([]);
      expect(pageErrors).toEqual([]);
      await page.context().close();
    }, 60_000);
  });

  describe('a live lesson in the playground over Server-Sent Events', () => {
    it('runs the lessonEvents example over an event stream, chosen in the toolbar, and shows FINISHED: no WebSocket opened', async () => {
      // A finish that changes nothing sends no event: the lesson the test above finished is launched again first.
      const launched = await gateway.graphql(`mutation { launchLesson(id: "${classroomActivityId}") { id } }`, {}, teacherToken);
      expect(launched.errors).toBeUndefined();
      const { page, foreignRequests, pageErrors } = await openPage('/graphql');
      const sockets: string[] = [];
      const streams: string[] = [];
      page.on('websocket', (socket) => sockets.push(socket.url()));
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/graphql/stream') streams.push(`${request.method()} ${request.headers().accept}`);
      });
      await page.waitForSelector('.graphiql-execute-button', { timeout: 20_000 });
      await openTab(page, 'LessonEvents');
      await page.getByRole('button', { name: /^Subscriptions over WebSocket/ }).click();
      await page.getByRole('button', { name: /^Subscriptions over Server-Sent Events/ }).waitFor();
      await setHeaders(page, { Authorization: `Bearer ${teacherToken}` });

      const started = gateway.logs().filter((line) => line.msg === 'subscription started').length;
      await page.click('.graphiql-execute-button');
      await gateway.waitForLog('subscription started', started + 1);
      expect(streams).toEqual(['POST text/event-stream']);
      expect(sockets).toEqual([]);

      const finish = await gateway.rest('PUT', finishLessonPath(classroomActivityId), { token: teacherToken, body: { follow_up: true } });
      expect(finish.status).toBe(200);
      expect(await finishedShown(page)).toEqual(finishedEvent(finish.body.follow_up_url));

      await page.screenshot({ path: `${SCREENSHOTS}/playground-live-sse.png`, mask: [page.locator('.graphiql-editor-tool')] });
      expect(foreignRequests).toEqual([]);
      expect(pageErrors).toEqual([]);
      await page.context().close();
    }, 60_000);
  });

  describe('the REST docs page in a browser', () => {
    it('lists every route of openapi.json, links to it, and loads nothing from another host', async () => {
      const { page, foreignRequests, pageErrors } = await openPage('/api/v1/docs');
      const document = (await gateway.rest('GET', '/api/v1/openapi.json')).body as {
        paths: Record<string, Record<string, { operationId: string }>>;
      };
      const operationIds = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
      expect(operationIds.length).toBeGreaterThan(5);
      for (const operationId of operationIds) {
        await expect(page.locator(`section#${operationId} h2`).isVisible()).resolves.toBe(true);
      }
      // The link to the machine-readable document works from the page.
      const [openapi] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/openapi.json')),
        page.click('a[href="openapi.json"]'),
      ]);
      expect(openapi.status()).toBe(200);
      expect((await openapi.json()).openapi).toMatch(/^3\.1\./);

      await page.goto(`${origin}/api/v1/docs`);
      await page.screenshot({ path: `${SCREENSHOTS}/rest-docs.png` });
      expect(foreignRequests).toEqual([]);
      expect(pageErrors).toEqual([]);
    }, 60_000);
  });
});
