import { getOperationAST, OperationTypeNode, parse } from 'graphql';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { newToken } from '../../../src/auth/tokens.ts';
import { DEMO_CLASSROOM_ACTIVITY_ID, demoData } from '../../../src/demo/seed.ts';
import { exampleTabs, type ExampleTab } from '../../../src/playground/examples.ts';
import { startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';
import { graphql } from '../../kit/gql/index.ts';

// The playground (docs/contract.md, Running it): GraphiQL served by the gateway itself, from npm packages, with nothing loaded
// from another host; its example operations run as they are against the demo data.

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const PAGE_URL = 'http://127.0.0.1:4000/graphql';

/**
 * Absolute URLs that appear as text inside the bundled libraries and are never loaded: XML namespaces
 * (React DOM's SVG/MathML support), and links shown in error messages or the UI's help.
 */
const NEVER_LOADED_HOSTS = new Set([
  'www.w3.org',
  'react.dev',
  'reactjs.org',
  'github.com',
  'codemirror.net',
  'yarnpkg.com',
  'en.wikipedia.org',
  'commonmark.org',
  'spec.commonmark.org',
]);

let gateway: ListeningGateway;
beforeAll(async () => {
  gateway = await startListeningGateway();
});
afterAll(() => gateway?.close());

async function page() {
  return gateway.app.inject({ method: 'GET', url: '/graphql', headers: { accept: BROWSER_ACCEPT } });
}

/** The script and stylesheet URLs a page references, resolved as a browser would (a data: icon is no request). */
function referencedAssets(html: string): URL[] {
  const refs = [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)]
    .map((match) => match[1]!)
    .filter((ref) => !ref.startsWith('data:'));
  return refs.map((ref) => new URL(ref, PAGE_URL));
}

describe('GET /graphql from a browser', () => {
  it('serves the GraphiQL page, whose scripts and styles all come from the gateway', async () => {
    const response = await page();

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<div id="graphiql">');
    expect(response.body).not.toMatch(/https?:\/\//);
    const assets = referencedAssets(response.body);
    expect(assets.map((url) => url.pathname).sort()).toEqual(['/playground/graphiql.css', '/playground/graphiql.js']);
    for (const url of assets) expect(url.origin).toBe(new URL(PAGE_URL).origin);
  });

  it('has no inline script: the settings are a JSON block, and the code is a same-host file', async () => {
    const { body } = await page();
    const scripts = [...body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    for (const [, attributes, content] of scripts) {
      if (content!.trim() !== '') expect(attributes).toContain('type="application/json"');
    }
  });

  it('loads its script and stylesheet: 200, with their content types', async () => {
    const { body } = await page();
    for (const url of referencedAssets(body)) {
      const asset = await gateway.app.inject({ method: 'GET', url: url.pathname });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-type']).toMatch(url.pathname.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      expect(asset.body.length).toBeGreaterThan(10_000);
    }
  });

  it('the script and stylesheet load nothing from another host', async () => {
    const js = (await gateway.app.inject({ method: 'GET', url: '/playground/graphiql.js' })).body;
    const css = (await gateway.app.inject({ method: 'GET', url: '/playground/graphiql.css' })).body;

    expect(js).toContain('graphiql');
    // Fonts and images are inlined: every url(...) of the stylesheet is a data: URL, and it imports nothing.
    const cssUrls = [...css.matchAll(/url\(\s*["']?([^"')]+)/g)].map((match) => match[1]!);
    expect(cssUrls.length).toBeGreaterThan(0);
    expect(cssUrls.filter((url) => !url.startsWith('data:'))).toEqual([]);
    expect(css).not.toMatch(/@import/);
    // The script: every absolute URL in it is text that is never fetched (see NEVER_LOADED_HOSTS).
    const hosts = [...js.matchAll(/https?:\/\/([a-z0-9.-]+\.[a-z]{2,})/gi)].map((match) => match[1]!.toLowerCase());
    expect([...new Set(hosts)].filter((host) => !NEVER_LOADED_HOSTS.has(host))).toEqual([]);
    expect(js).not.toMatch(/import\(\s*["'`]https?:/);
  });

  it('opens on the gateway endpoint, with a bearer token to fill in on the examples that need one', async () => {
    const { body } = await page();
    const config = JSON.parse(/<script id="playground-config" type="application\/json">([\s\S]*?)<\/script>/.exec(body)![1]!);

    expect(new URL(config.endpoint, PAGE_URL).toString()).toBe(PAGE_URL);
    // The examples that need a teacher carry the header to fill in; the others send none, since a
    // placeholder token would be refused (401) even where no token is needed.
    const needsToken = exampleTabs.map((tab) => tab.needsToken);
    expect(config.tabs.map((tab: { headers: string }) => /"Authorization": "Bearer /.test(tab.headers))).toEqual(needsToken);
    for (const tab of config.tabs.filter((_: unknown, index: number) => !needsToken[index])) expect(JSON.parse(tab.headers)).toEqual({});
    expect(JSON.parse(config.defaultHeaders)).toEqual({});
    expect(config.tabs.map((tab: { query: string }) => /^(?:query|mutation|subscription) (\w+)/m.exec(tab.query)?.[1])).toEqual([
      'Activity',
      'Activities',
      'ClassroomActivity',
      'Viewer',
      'LessonEvents',
      'FinishLesson',
      'UnpinAndLock',
      'PublishEdition',
    ]);
  });

  it('leaves POST, and GET without text/html, to GraphQL', async () => {
    expect(await gateway.graphql(graphql(`query Typename { __typename }`))).toMatchObject({ status: 200, data: { __typename: 'Query' } });
    const get = await gateway.app.inject({
      method: 'GET',
      url: '/graphql?query=%7B__typename%7D',
      headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(get.statusCode).toBe(200);
    expect(JSON.parse(get.body)).toEqual({ data: { __typename: 'Query' } });
  });

  it('GET / redirects to it', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/graphql');
  });
});

const isSubscription = (tab: ExampleTab) => getOperationAST(parse(tab.query))?.operation === OperationTypeNode.SUBSCRIPTION;

/** Runs a subscription tab as the playground does: over graphql-ws on /graphql, the token in connection_init. */
function subscribe(tab: ExampleTab, token: string | undefined) {
  const client = createClient({
    url: gateway.wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
  });
  const results: any[] = [];
  // An end before the test's own dispose() is an error the test reports.
  const ended = (how: any) => void results.push({ errors: [{ message: `ended: ${how?.code ?? how?.message ?? JSON.stringify(how)}` }] });
  client.subscribe(
    { query: tab.query, variables: tab.variables },
    { next: (value) => void results.push(value), error: ended, complete: () => ended('complete') },
  );
  return { tab, client, results };
}

describe('the example operations', () => {
  it('each runs without errors on the demo data, as it is in the playground; the subscription sees the lesson end', async () => {
    const teacherToken = newToken();
    await gateway.reset(demoData(teacherToken, newToken()));
    const tokenFor = (tab: ExampleTab) => (tab.needsToken ? teacherToken : undefined);

    // The subscription tabs first, as a person would open lessonEvents before ending the lesson in another tab.
    const subscriptions = exampleTabs.filter(isSubscription).map((tab) => subscribe(tab, tokenFor(tab)));
    expect(subscriptions.map(({ tab }) => tab.name)).toEqual(['lessonEvents']);
    await gateway.waitForLog('subscription started', subscriptions.length);

    let followUpUrl: unknown;
    for (const tab of exampleTabs.filter((tab) => !isSubscription(tab))) {
      const answer = await gateway.graphql(tab.query, tab.variables, tokenFor(tab));
      expect({ tab: tab.name, errors: answer.errors }).toEqual({ tab: tab.name, errors: undefined });
      expect(Object.values(answer.data ?? {})[0], tab.name).not.toBeNull();
      if (tab.name === 'finishLesson') followUpUrl = answer.data.finishLesson.followUpUrl;
    }
    expect(followUpUrl).toMatch(/^https?:\/\/.+\/activity_from_classroom_activity$/);

    for (const { tab, client, results } of subscriptions) {
      const finished = (result: any) => result.data?.lessonEvents?.kind === 'FINISHED';
      await waitFor(() => results.some((result) => result.errors || finished(result)), `${tab.name}: a FINISHED event`);
      for (const result of results) expect({ tab: tab.name, errors: result.errors }).toEqual({ tab: tab.name, errors: undefined });
      expect(results.find(finished)?.data.lessonEvents).toMatchObject({
        classroomActivityId: String(DEMO_CLASSROOM_ACTIVITY_ID),
        locked: true,
        completed: true,
        followUpUrl,
      });
      await client.dispose();
    }
  });
});
