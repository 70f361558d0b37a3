import type { MetaStatus } from '../http/errors.ts';
import type { JsonSchema } from './json-schemas.ts';
import { routes as routeTable, type RestRoute } from './routes.ts';

// The OpenAPI 3.1 document of the /api/v1 routes, generated from the route table (routes.ts): one
// source, so a route cannot exist without being described. Served at GET /api/v1/openapi.json; the page
// at GET /api/v1/docs is rendered from the same document (docsPage below), with nothing from another host.

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 503;

/** The status table of docs/contract.md, Errors: the envelope's status and when it is answered. */
export const errorStatuses: Record<ErrorStatus, { meta: MetaStatus; when: string }> = {
  400: { meta: 'bad_request', when: 'The body is not JSON, or not a JSON object (a form: no `json` field, or not a JSON object in it)' },
  401: { meta: 'unauthorized', when: 'Credentials are needed and missing, or a token is presented and wrong' },
  403: { meta: 'forbidden', when: 'Signed in, but not allowed' },
  404: { meta: 'not_found', when: 'Unknown or hidden id' },
  409: { meta: 'conflict', when: 'A racing call could not be serialised' },
  413: { meta: 'payload_too_large', when: 'The body is over the limit (BODY_LIMIT), or a finish_lesson has over 10,000 concept results' },
  422: { meta: 'invalid', when: 'A JSON object whose fields are wrong; `errors` maps each offending field path to messages' },
  429: { meta: 'rate_limited', when: 'Too many requests; the Retry-After header says when to come back' },
  500: { meta: 'error', when: 'Anything else; the message says nothing about internals' },
  503: { meta: 'unavailable', when: 'The database cannot be reached, or the server is shutting down' },
};

/** Every route can answer these: a wrong token is 401 even where no sign-in is needed. */
const commonErrors: ErrorStatus[] = [401, 429, 500, 503];

const accessText: Record<RestRoute['doc']['access'], string> = {
  anyone: 'Anyone; credentials are optional (but a wrong token is 401).',
  'signed-in': 'Any signed-in user.',
  teacher: 'A teacher of the classroom the classroom activity belongs to.',
  staff: 'Staff users only.',
};

/** `/activities/:id` → `/activities/{id}`. */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

const operationId = (route: RestRoute) => {
  const match = /^(?:query|mutation)\s+(\w+)/.exec(route.operation);
  return match ? match[1]!.charAt(0).toLowerCase() + match[1]!.slice(1) : `${route.method.toLowerCase()}${route.url.replace(/\W+/g, '_')}`;
};

const errorRef = (status: ErrorStatus) => ({ $ref: `#/components/responses/Error${status}` });

function operation(route: RestRoute) {
  const { doc } = route;
  const statuses = [...new Set<ErrorStatus>([...doc.errors, ...commonErrors])].sort((a, b) => a - b);
  const responses: Record<string, unknown> = {
    200: { description: 'Success', content: { 'application/json': { schema: doc.response } } },
    ...Object.fromEntries(statuses.map((status) => [String(status), errorRef(status)])),
  };
  const parameters = [...route.url.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: doc.id?.description,
    schema: { type: 'string' },
    example: doc.id?.example,
  }));
  const form = { type: 'object', properties: { json: { type: 'string', description: 'The JSON body, as text' } }, required: ['json'] };
  return {
    operationId: operationId(route),
    summary: route.summary,
    description: `Who may call it: ${accessText[doc.access]} Runs the stored GraphQL operation \`${operationId(route)}\` (see POST /graphql).`,
    tags: [route.url.split('/')[1]!],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body
      ? {
          requestBody: {
            required: false,
            description: 'An empty body counts as `{}`; unknown keys are ignored; an explicit null for an optional field means absent.',
            content: {
              'application/json': { schema: doc.body.schema, example: doc.body.example },
              ...(doc.body.form ? { 'application/x-www-form-urlencoded': { schema: form }, 'multipart/form-data': { schema: form } } : {}),
            },
          },
        }
      : {}),
    security: doc.access === 'anyone' ? [{}, { bearer: [] }, { basic: [] }] : [{ bearer: [] }, { basic: [] }],
    responses,
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;

export function openApiDocument(routes: RestRoute[] = routeTable) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[openApiPath(route.url)] ??= {})[route.method.toLowerCase()] = operation(route);
  const statuses = Object.keys(errorStatuses).map(Number) as ErrorStatus[];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lessons gateway: REST compatibility routes',
      version: '1',
      description:
        'The legacy /api/v1 routes of the lessons client, each a stored GraphQL operation run by the gateway. JSON in and out; ' +
        'every error has the envelope `{"meta": {"status", "message", "errors"}}`. Checks run in this order: route and id (404), ' +
        'credentials (401), permission (403), body (400, 413, 422). GraphQL itself is at POST /graphql.',
    },
    servers: [{ url: '/api/v1' }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An access token (`npm run token:create`, or the demo token `npm start` prints)',
        },
        basic: { type: 'http', scheme: 'basic', description: 'The token as the user name and an empty password (older clients)' },
      },
      schemas: {
        ErrorEnvelope: {
          type: 'object',
          required: ['meta'],
          properties: {
            meta: {
              type: 'object',
              required: ['status', 'message', 'errors'],
              properties: {
                status: { enum: statuses.map((status) => errorStatuses[status].meta) },
                message: { type: 'string' },
                errors: {
                  oneOf: [{ type: 'null' }, { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }],
                  description: 'For 422: field path (e.g. `concept_results[3].activity_session_uid`) → messages',
                },
              },
            },
          },
        } satisfies JsonSchema,
      },
      responses: Object.fromEntries(
        statuses.map((status) => [
          `Error${status}`,
          {
            description: errorStatuses[status].when,
            ...(status === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } } : {}),
            content: {
              'application/json': {
                schema: {
                  allOf: [
                    { $ref: '#/components/schemas/ErrorEnvelope' },
                    { properties: { meta: { properties: { status: { const: errorStatuses[status].meta } } } } },
                  ],
                },
              },
            },
          },
        ]),
      ),
    },
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const json = (value: unknown) => escapeHtml(JSON.stringify(value, null, 2));

/** A readable page of the document: plain HTML and CSS, no script, nothing from another host. */
export function docsPage(document: OpenApiDocument = openApiDocument()): string {
  const sections: string[] = [];
  const toc: string[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods) as [string, ReturnType<typeof operation>][]) {
      const anchor = op.operationId;
      toc.push(
        `<li><a href="#${anchor}"><code>${method.toUpperCase()} /api/v1${escapeHtml(path)}</code></a> ${escapeHtml(op.summary)}</li>`,
      );
      const params = (op.parameters ?? []).map(
        (p) =>
          `<li><code>${p.name}</code> (path): ${escapeHtml(p.description ?? '')}, e.g. <code>${escapeHtml(p.example ?? '')}</code></li>`,
      );
      const body = op.requestBody?.content;
      const responses = Object.entries(op.responses).map(([status, response]) => {
        const ref = (response as { $ref?: string }).$ref;
        const described = ref
          ? document.components.responses[ref.split('/').pop() as keyof typeof document.components.responses]
          : (response as { description: string });
        const schema = !ref
          ? `<pre>${json((response as { content: Record<string, { schema: unknown }> }).content['application/json']!.schema)}</pre>`
          : '';
        return `<tr><td><code>${status}</code></td><td>${escapeHtml(described?.description ?? '')}${schema}</td></tr>`;
      });
      sections.push(`<section id="${anchor}">
<h2><span class="method ${method}">${method.toUpperCase()}</span> <code>/api/v1${escapeHtml(path)}</code></h2>
<p>${escapeHtml(op.summary)}. ${escapeHtml(op.description)}</p>
<p>Credentials: ${op.security.some((s) => Object.keys(s).length === 0) ? 'optional; ' : ''}<code>Authorization: Bearer TOKEN</code> or <code>Authorization: Basic</code> with the token as the user name.</p>
${params.length ? `<h3>Parameters</h3><ul>${params.join('')}</ul>` : ''}
${
  body
    ? `<h3>Request body</h3><p>Content types: ${Object.keys(body)
        .map((t) => `<code>${t}</code>`)
        .join(
          ', ',
        )}${body['multipart/form-data'] ? ' (forms: one field <code>json</code> holding the JSON text)' : ''}</p><pre>${json(body['application/json'].schema)}</pre><p>Example:</p><pre>${json(body['application/json'].example)}</pre>`
    : ''
}
<h3>Responses</h3>
<table><tbody>${responses.join('\n')}</tbody></table>
</section>`);
    }
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)}</title>
<link rel="icon" href="data:,">
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre { background: #f5f5f5; padding: .6rem; overflow: auto; max-height: 24rem; }
section { border-top: 1px solid #ddd; margin-top: 2rem; }
.method { display: inline-block; min-width: 4.5rem; text-align: center; color: #fff; border-radius: 3px; font-size: 14px; padding: 0 .3rem; }
.get { background: #2b6cb0; } .post { background: #2f855a; } .put { background: #b7791f; } .delete { background: #c53030; }
td { vertical-align: top; padding: .2rem .6rem; border-bottom: 1px solid #eee; }
</style>
</head>
<body>
<h1>${escapeHtml(document.info.title)}</h1>
<p>${escapeHtml(document.info.description)}</p>
<p>The machine-readable document: <a href="openapi.json">openapi.json</a> (OpenAPI ${document.openapi}). Error body for every failure:</p>
<pre>${json(document.components.schemas.ErrorEnvelope)}</pre>
<h2>Routes</h2>
<ul>${toc.join('\n')}</ul>
${sections.join('\n')}
</body>
</html>
`;
}
