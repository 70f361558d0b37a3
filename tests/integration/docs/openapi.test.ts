import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../../src/auth/tokens.ts';
import { demoData } from '../../../src/demo/seed.ts';
import { errorStatuses, openApiPath } from '../../../src/rest/openapi.ts';
import { routes, type RestRoute } from '../../../src/rest/routes.ts';
import { tokens } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';

// GET /api/v1/openapi.json (OpenAPI 3.1, generated from the route table) and GET /api/v1/docs
// (docs/contract.md, REST routes): every route is described, the document is valid, and every route
// answers as it is documented.

let gateway: Gateway;
let document: any;
beforeAll(async () => {
  gateway = await startGateway();
  const response = await gateway.rest('GET', '/api/v1/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  document = response.body;
});
afterAll(() => gateway?.close());

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const label = (route: RestRoute) => `${route.method} ${route.url}`;
const operationOf = (route: RestRoute) => document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];

/** The documented schema of the answer `status` of `route`, resolving the shared error responses. */
function responseSchema(route: RestRoute, status: number) {
  const response = operationOf(route).responses[String(status)];
  const resolved = response.$ref ? document.components.responses[response.$ref.split('/').pop()] : response;
  return { ...resolved.content['application/json'].schema, components: document.components };
}

/** Checks the answer is among the route's documented responses, with a body its schema accepts. */
function expectDocumented(route: RestRoute, answer: { status: number; body: unknown }) {
  const documented = Object.keys(operationOf(route).responses).map(Number);
  expect(documented, `${label(route)} answered ${answer.status}`).toContain(answer.status);
  const validate = ajv.compile(responseSchema(route, answer.status));
  expect(
    validate(answer.body) ? null : { route: label(route), status: answer.status, body: answer.body, errors: validate.errors },
  ).toBeNull();
}

/** A request for `route` as its documentation's examples describe it. */
function exampleRequest(route: RestRoute, token: string | undefined, body: unknown = route.doc.body?.example) {
  const path = `/api/v1${route.url.replace(':id', encodeURIComponent(route.doc.id?.example ?? ''))}`;
  return gateway.rest(route.method, path, { token, ...(body === undefined ? {} : { body }) });
}

describe('GET /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? null).toBeNull();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it('has a path and method for every entry of the route table, and nothing else', () => {
    for (const route of routes) expect(operationOf(route), label(route)).toBeDefined();
    const described = Object.values(document.paths).reduce((count: number, methods: any) => count + Object.keys(methods).length, 0);
    expect(described).toBe(routes.length);
  });

  it('describes bearer and basic auth, and the error envelope', () => {
    expect(document.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      basic: expect.objectContaining({ type: 'http', scheme: 'basic' }),
    });
    for (const route of routes) {
      const security = operationOf(route).security;
      expect(security).toContainEqual({ bearer: [] });
      expect(security).toContainEqual({ basic: [] });
      expect(
        security.some((entry: object) => Object.keys(entry).length === 0),
        label(route),
      ).toBe(route.doc.access === 'anyone');
    }
    const envelope = ajv.compile(document.components.schemas.ErrorEnvelope);
    expect(envelope({ meta: { status: 'not_found', message: 'The resource you were looking for does not exist', errors: null } })).toBe(
      true,
    );
    expect(envelope({ meta: { status: 'invalid', message: 'x', errors: { 'concept_results[0].concept_uid': ['is unknown'] } } })).toBe(
      true,
    );
    expect(envelope({ error: 'x' })).toBe(false);
  });

  it('every request and response schema is a schema the validator accepts', () => {
    for (const route of routes) {
      for (const status of Object.keys(operationOf(route).responses))
        expect(() => ajv.compile(responseSchema(route, Number(status)))).not.toThrow();
      const body = operationOf(route).requestBody?.content['application/json'];
      if (body) expect(ajv.validate(body.schema, body.example), `${label(route)}: its example fits its schema`).toBe(true);
    }
  });
});

describe('every route answers as documented', () => {
  it('with its documented example, on the demo data: 200 and the documented body', async () => {
    const teacher = newToken();
    const staff = newToken();
    for (const route of routes) {
      await gateway.reset(demoData(teacher, staff));
      const answer = await exampleRequest(
        route,
        route.doc.access === 'staff' ? staff : route.doc.access === 'anyone' ? undefined : teacher,
      );
      expect(answer.status, `${label(route)}: ${answer.text}`).toBe(200);
      expectDocumented(route, answer);
    }
  });

  it('its errors, on the shared fixture: each status it answers is listed, with the envelope', async () => {
    await gateway.reset();
    const seen = new Map<string, Set<number>>();
    const see = (route: RestRoute, answer: { status: number; body: unknown }) => {
      expectDocumented(route, answer);
      const statuses = seen.get(label(route)) ?? new Set();
      seen.set(label(route), statuses.add(answer.status));
      const expected = errorStatuses[answer.status as keyof typeof errorStatuses];
      if (expected) expect((answer.body as any).meta.status).toBe(expected.meta);
    };
    const allowed = (route: RestRoute) => (route.doc.access === 'staff' ? tokens.staff : tokens.owner);

    for (const route of routes) {
      // A wrong token is 401 on every route.
      see(route, await exampleRequest(route, 'lgw_not-a-real-token-0123456789'));
      if (route.doc.access !== 'anyone') see(route, await exampleRequest(route, undefined));
      // Someone signed in but not allowed.
      if (route.doc.errors.includes(403))
        see(route, await exampleRequest(route, route.doc.access === 'staff' ? tokens.owner : tokens.otherTeacher));
      // An unknown id.
      if (route.doc.id) {
        const path = `/api/v1${route.url.replace(':id', '999999')}`;
        see(
          route,
          await gateway.rest(route.method, path, { token: allowed(route), ...(route.doc.body ? { body: route.doc.body.example } : {}) }),
        );
      }
      // A body that is not a JSON object, and one whose fields are wrong.
      if (route.doc.body) {
        see(route, await exampleRequest(route, allowed(route), [1, 2]));
        see(
          route,
          await exampleRequest(
            route,
            allowed(route),
            route.url.includes('finish_lesson') ? { concept_results: [{ concept_uid: 5 }] } : { activity: { name: 5 } },
          ),
        );
      }
    }
    // Each documented error status was seen where the route lists it (409 and 413 are left to their own tests).
    for (const route of routes) {
      for (const status of route.doc.errors.filter((s) => s !== 409 && s !== 413))
        expect(seen.get(label(route)), `${label(route)} ${status}`).toContain(status);
      expect(seen.get(label(route))).toContain(401);
    }
  });
});

describe('GET /api/v1/docs', () => {
  it('is an HTML page listing every route, with nothing loaded from another host', async () => {
    const response = await gateway.rest('GET', '/api/v1/docs');

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    for (const route of routes) expect(response.text).toContain(`${route.method}</span> <code>/api/v1${openApiPath(route.url)}</code>`);
    expect(response.text).not.toMatch(/<script\b/);
    expect(response.text).not.toMatch(/(?:src|href)="https?:/);
    expect(response.text).toContain('href="openapi.json"');
  });
});
