// The playground's browser entry, bundled by esbuild (assets.ts) with React and GraphiQL from
// node_modules. Plain JavaScript without JSX: the server's tsconfig has no DOM types. Everything it needs
// comes from the page it is loaded by (a JSON block, no inline script) and from the same host.
import { GraphiQL } from 'graphiql';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';

const config = JSON.parse(document.getElementById('playground-config').textContent);
const endpoint = new URL(config.endpoint, window.location.href).toString();

async function fetcher(params, options) {
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
