// The playground's browser entry, bundled by esbuild (assets.ts) with React and GraphiQL from
// node_modules. Plain JavaScript without JSX: the server's tsconfig has no DOM types. Everything it needs
// comes from the page it is loaded by (a JSON block, no inline script) and from the same host.
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { getOperationAST, OperationTypeNode } from 'graphql';
import { createClient as createStreamClient } from 'graphql-sse';
import { createClient } from 'graphql-ws';
import { createElement, Fragment, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';

const config = JSON.parse(document.getElementById('playground-config').textContent);
const endpoint = new URL(config.endpoint, window.location.href).toString();
const streamEndpoint = new URL(config.streamEndpoint, window.location.href).toString();

// Subscriptions are served by graphql-ws on the same path (docs/contract.md, Live lessons): ws: or wss:
// as the page itself was loaded.
const socketEndpoint = new URL(endpoint);
socketEndpoint.protocol = socketEndpoint.protocol === 'https:' ? 'wss:' : 'ws:';

async function httpFetcher(params, options) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(options && options.headers) },
    body: JSON.stringify(params),
    credentials: 'same-origin',
  });
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return { errors: [{ message: `HTTP ${response.status}: ${text}` }] };
  }
}

/** The Headers editor's Authorization value, whatever the case of its name. */
function authorizationIn(headers) {
  const name = Object.keys(headers ?? {}).find((key) => key.toLowerCase() === 'authorization');
  return name === undefined ? undefined : String(headers[name]);
}

// One graphql-ws client per Authorization value, since a socket sends its token once (in connection_init):
// an edited token takes effect on the next run. A client opens its socket with its first subscription and
// closes it after its last. GraphiQL's toolkit turns the socket's messages into the results GraphiQL
// shows, and a closed socket into a readable error. No retries: a refused token (4403) or a gateway going
// away shows at once instead of after a reconnecting loop.
const socketFetchers = new Map();

function socketFetcher(authorization) {
  const key = authorization ?? '';
  if (!socketFetchers.has(key)) {
    const wsClient = createClient({
      url: socketEndpoint.toString(),
      connectionParams: authorization === undefined ? {} : { authorization },
      retryAttempts: 0,
    });
    socketFetchers.set(key, createGraphiQLFetcher({ url: endpoint, wsClient }));
  }
  return socketFetchers.get(key);
}

/**
 * A subscription over Server-Sent Events (docs/contract.md, Live lessons): graphql-sse's client, a stream of
 * its own at /graphql/stream with the Headers editor's headers, ended when GraphiQL stops it. No retries, as
 * for the socket; a stream refused before it opened shows the GraphQL errors of its HTTP answer.
 */
async function* streamFetcher(params, options) {
  const client = createStreamClient({ url: streamEndpoint, headers: { ...(options && options.headers) }, retryAttempts: 0 });
  try {
    yield* client.iterate({
      query: params.query,
      variables: params.variables ?? undefined,
      operationName: params.operationName ?? undefined,
    });
  } catch (error) {
    if (!error || !error.response) throw error;
    const text = await error.response.text();
    try {
      yield JSON.parse(text);
    } catch {
      yield { errors: [{ message: `HTTP ${error.response.status}: ${text}` }] };
    }
  } finally {
    client.dispose();
  }
}

// Which transport subscriptions take, chosen with the toolbar's button and remembered by the browser:
// WebSocket by default, Server-Sent Events for networks that drop WebSockets.
const TRANSPORT_KEY = 'lessons-gateway:subscriptions';
let transport = window.localStorage.getItem(TRANSPORT_KEY) === 'sse' ? 'sse' : 'websocket';

/** Queries and mutations over HTTP; subscriptions (lessonEvents) over the socket or an event stream. */
function fetcher(params, options) {
  const documentAST = options && options.documentAST;
  const operation = documentAST && getOperationAST(documentAST, params.operationName ?? undefined);
  if (operation && operation.operation === OperationTypeNode.SUBSCRIPTION)
    return transport === 'sse' ? streamFetcher(params, options) : socketFetcher(authorizationIn(options.headers))(params, options);
  return httpFetcher(params, options);
}

/** The toolbar's button that switches the transport of the next subscription run. */
function TransportButton() {
  const [shown, setShown] = useState(transport);
  const label =
    shown === 'sse'
      ? 'Subscriptions over Server-Sent Events (click for WebSocket)'
      : 'Subscriptions over WebSocket (click for Server-Sent Events)';
  return createElement(
    'button',
    {
      type: 'button',
      className: 'graphiql-un-styled graphiql-toolbar-button',
      'aria-label': label,
      title: label,
      style: { fontSize: '11px', fontWeight: 600 },
      onClick: () => {
        transport = transport === 'sse' ? 'websocket' : 'sse';
        window.localStorage.setItem(TRANSPORT_KEY, transport);
        setShown(transport);
      },
    },
    shown === 'sse' ? 'SSE' : 'WS',
  );
}

// On a first visit GraphiQL opens the first default tab but fills its variables and headers editors only
// from the `variables`/`headers` props (not from the tab), so the example would run without them. Later
// visits restore the tabs GraphiQL stored itself, where passing the props would add a stray tab.
const firstVisit = window.localStorage.getItem('graphiql:tabState') === null;
const firstTab = config.tabs[0];

createRoot(document.getElementById('graphiql')).render(
  createElement(
    GraphiQL,
    {
      fetcher,
      defaultTabs: config.tabs,
      ...(firstVisit ? { variables: firstTab.variables ?? '', headers: firstTab.headers } : {}),
      defaultHeaders: config.defaultHeaders,
      isHeadersEditorEnabled: true,
      defaultEditorToolsVisibility: 'headers',
      shouldPersistHeaders: false,
    },
    createElement(GraphiQL.Toolbar, null, ({ prettify, merge, copy }) =>
      createElement(Fragment, null, prettify, merge, copy, createElement(TransportButton)),
    ),
  ),
);
