import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { playgroundAssets } from './assets.ts';
import { exampleTabs, headersFor, noHeaders } from './examples.ts';

// The GraphQL playground (docs/architecture.md, The playground): GraphiQL served by the gateway itself, its
// assets bundled from node_modules (assets.ts) under /playground/, nothing from another host. A browser's
// GET /graphql gets the page; POST, and GET without `Accept: text/html`, stay Apollo's.

const jsonForHtml = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The page: no inline script (its settings are a JSON block), so `script-src 'self'` allows it. Relative URLs: `playground/...` and the endpoints resolve against /graphql itself. */
export function playgroundPage(): string {
  const config = {
    endpoint: 'graphql',
    streamEndpoint: 'graphql/stream',
    defaultHeaders: noHeaders,
    tabs: exampleTabs.map((tab) => ({
      query: tab.query,
      variables: tab.variables && JSON.stringify(tab.variables, null, 2),
      headers: headersFor(tab),
    })),
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lessons gateway: GraphQL playground</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="playground/graphiql.css">
<script id="playground-config" type="application/json">${jsonForHtml(config)}</script>
<script defer src="playground/graphiql.js"></script>
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql"><noscript>The playground needs JavaScript. GraphQL answers at POST /graphql; the REST routes are described at /api/v1/docs.</noscript></div>
</body>
</html>
`;
}

/** A browser asking for a page (not a GraphQL client doing a GET query). */
export function wantsPlaygroundPage(request: FastifyRequest): boolean {
  return request.method === 'GET' && /\btext\/html\b/i.test(request.headers.accept ?? '');
}

/** The /graphql handler: the page for a browser when the playground is on, else `graphql`. */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument -- any route's handler, whatever its generics (the Apollo handler's are its own). */
export function withPlayground<Handler extends (this: FastifyInstance, request: FastifyRequest<any>, reply: FastifyReply<any>) => unknown>(
  enabled: boolean,
  graphql: Handler,
): Handler {
  if (!enabled) return graphql;
  return function (this: FastifyInstance, request: FastifyRequest<any>, reply: FastifyReply<any>) {
    if (wantsPlaygroundPage(request))
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(playgroundPage());
    return graphql.call(this, request, reply);
  } as Handler;
}
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument */

async function sendAsset(reply: FastifyReply, kind: 'js' | 'css') {
  const assets = await playgroundAssets();
  return reply
    .type(kind === 'js' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8')
    .header('cache-control', 'public, max-age=3600')
    .send(assets[kind]);
}

/** The script and stylesheet the page loads; nothing when the playground is off (they 404). */
export async function playgroundRoutes(app: FastifyInstance, { enabled }: { enabled: boolean }): Promise<void> {
  if (!enabled) return;
  app.get('/playground/graphiql.js', (_request, reply) => sendAsset(reply, 'js'));
  app.get('/playground/graphiql.css', (_request, reply) => sendAsset(reply, 'css'));
  // A server that listens (not one driven by inject, as in tests) builds the bundle right away.
  app.addHook('onListen', async () => {
    playgroundAssets().catch((error: unknown) => app.log.error({ err: error }, 'could not build the playground'));
  });
}
