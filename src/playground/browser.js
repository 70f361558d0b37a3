// The playground's browser entry, bundled by esbuild (assets.ts) with React and GraphiQL from
// node_modules. Plain JavaScript without JSX: the server's tsconfig has no DOM types. Everything it needs
// comes from the page it is loaded by (a JSON block, no inline script) and from the same host.
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { getOperationAST, OperationTypeNode } from 'graphql';
import { createClient } from 'graphql-ws';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';

const config = JSON.parse(document.getElementById('playground-config').textContent);
const endpoint = new URL(config.endpoint, window.location.href).toString();

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

/** Queries and mutations over HTTP; subscriptions (lessonEvents) over the socket. */
function fetcher(params, options) {
  const documentAST = options && options.documentAST;
  const operation = documentAST && getOperationAST(documentAST, params.operationName ?? undefined);
  if (operation && operation.operation === OperationTypeNode.SUBSCRIPTION)
    return socketFetcher(authorizationIn(options.headers))(params, options);
  return httpFetcher(params, options);
}

// On a first visit GraphiQL opens the first default tab but fills its variables and headers editors only
// from the `variables`/`headers` props (not from the tab), so the example would run without them. Later
// visits restore the tabs GraphiQL stored itself, where passing the props would add a stray tab.
const firstVisit = window.localStorage.getItem('graphiql:tabState') === null;
const firstTab = config.tabs[0];

createRoot(document.getElementById('graphiql')).render(
  createElement(GraphiQL, {
    fetcher,
    defaultTabs: config.tabs,
    ...(firstVisit ? { variables: firstTab.variables ?? '', headers: firstTab.headers } : {}),
    defaultHeaders: config.defaultHeaders,
    isHeadersEditorEnabled: true,
    defaultEditorToolsVisibility: 'headers',
    shouldPersistHeaders: false,
  }),
);
