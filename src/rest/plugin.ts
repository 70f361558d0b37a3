import type { ApolloServer } from '@apollo/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestContext } from '../modules/context.ts';
import type { Tracing } from '../telemetry/tracing.ts';
import { viewerOfWrite } from '../http/ambient-credentials.ts';
import type { RequestAuthentication } from '../http/authentication.ts';
import { fromGraphQLError, RETRY_AFTER_SECONDS } from '../http/errors.ts';
import type { PublicCache } from '../http/public-cache.ts';
import { notModified, tagNow } from '../http/public-tags.ts';
import { inBodyWords } from './bodies.ts';
import { docsPage, openApiDocument } from './openapi.ts';
import { routes, type RestRoute } from './routes.ts';

export type RestOptions = {
  apollo: ApolloServer<RequestContext>;
  contextFor: (request: FastifyRequest) => Promise<RequestContext>;
  /** Who is calling (src/http/authentication.ts): a write an ambient credential authenticated must come from a trusted origin. */
  authentication: RequestAuthentication;
  corsOrigins: readonly string[];
  /** When tracing is on: each stored operation runs in its GraphQL operation span (src/telemetry/). */
  tracing?: Tracing | undefined;
  /**
   * HTTP caching of public reads (docs/operations.md, HTTP caching): the cache, and whether a stored operation
   * reads only what anyone may (src/graphql/public-documents.ts). Undefined when PUBLIC_CACHE_MAX_AGE is 0.
   */
  publicReads?: { cache: PublicCache; isPublic: (operation: string) => boolean } | undefined;
};

/**
 * Reads a body without judging it: JSON text becomes its value, anything else stays text, so that the
 * operation (after the 404/401/403 checks) answers 400 for a body that is not a JSON object.
 */
function parseLegacyJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    // JSON `null` is JSON but not an object (400): kept as text so that it cannot read as an absent body.
    return JSON.parse(text) ?? text;
  } catch {
    return text;
  }
}

const isForm = (request: FastifyRequest) =>
  /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(request.headers['content-type'] ?? '');

/** The lessons client posts finish_lesson as a form whose `json` field holds the JSON text. */
function legacyBody(request: FastifyRequest): unknown {
  if (!isForm(request)) return request.body;
  const json = (request.body as Record<string, unknown> | undefined)?.json;
  return typeof json === 'string' ? (parseLegacyJson(json) ?? '') : '';
}

export async function restRoutes(
  app: FastifyInstance,
  { apollo, contextFor, authentication, corsOrigins, tracing, publicReads }: RestOptions,
): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => done(null, parseLegacyJson(text as string)));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, text, done) =>
    done(null, Object.fromEntries(new URLSearchParams(text as string))),
  );
  // Multipart is read whole, like every other body, so that BODY_LIMIT applies to it too (413); its text
  // fields become the form. A body that is not valid multipart is a form without `json` (400, after access).
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, buffer, done) => {
    new Response(buffer as Buffer as unknown as ConstructorParameters<typeof Response>[0], {
      headers: { 'content-type': request.headers['content-type']! },
    })
      .formData()
      .then((form) => done(null, Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === 'string'))))
      .catch(() => done(null, {}));
  });

  // Their description, generated from the same table (openapi.ts).
  const document = openApiDocument(routes);
  const page = docsPage(document);
  app.get('/openapi.json', (_request, reply) => reply.type('application/json; charset=utf-8').send(document));
  app.get('/docs', (_request, reply) => reply.type('text/html; charset=utf-8').send(page));

  for (const route of routes) {
    const cache = route.method === 'GET' && publicReads?.isPublic(route.operation) ? publicReads.cache : undefined;
    app.route({
      method: route.method,
      url: route.url,
      handler: async (request, reply) => {
        // A public read's tag is taken before its data is read; one the request names is answered 304 at once.
        let tag: string | undefined;
        if (cache?.mayBePublic(request.method, request.headers)) {
          cache.addVary(reply);
          tag = await tagNow(cache, ['rest', route.url, (request.params as { id?: string }).id ?? '']);
          const answered = tag && notModified(cache, request.headers, reply, tag, 'before');
          if (answered) return answered;
        }
        const { status, body } = await run(route, request);
        if (status === 401 && authentication.known(request)?.viewer.kind === 'invalid')
          reply.header('www-authenticate', 'Bearer error="invalid_token"');
        if (status === 503) reply.header('retry-after', RETRY_AFTER_SECONDS);
        // Only a found resource is public: a 404 (or any other error) is not kept.
        if (cache && tag && status === 200) {
          const answered = notModified(cache, request.headers, reply, tag, 'after');
          if (answered) return answered;
          cache.markPublic(reply, tag);
        }
        return reply.code(status).send(body);
      },
    });
  }

  // Going in, the path and the body become the stored operation's variables; coming out, its data or its first
  // error become the legacy answer: the only two visits a request pays to src/rest/ (docs/architecture.md).
  async function run(route: RestRoute, request: FastifyRequest): Promise<{ status: number; body: unknown }> {
    const read = route.input?.read(legacyBody(request));
    const variables = { ...route.variables?.({ params: request.params as Record<string, string> }), ...(read && { input: read.input }) };
    const contextValue = await contextFor(request);
    // Cookies and HTTP Basic are ambient: a page of another site could make the browser send them. Such a change
    // is refused by the operation's guards, after its 404 and 401 checks (src/http/ambient-credentials.ts).
    const known = authentication.known(request);
    if (route.method !== 'GET' && known) contextValue.viewer = viewerOfWrite(request, known, contextValue.viewer, corsOrigins);
    const execute = () => apollo.executeOperation({ query: route.operation, variables }, { contextValue });
    const response = await (tracing ? tracing.graphqlOperation(execute) : execute());
    if (response.body.kind !== 'single') throw new Error('A stored operation answered incrementally');
    const { data, errors } = response.body.singleResult;
    if (errors?.length) return fromGraphQLError(read ? inBodyWords(errors[0]!, read) : errors[0]!);
    const mapped = route.respond(data);
    return mapped
      ? { status: mapped.status ?? 200, body: mapped.body }
      : fromGraphQLError({ message: '', extensions: { code: 'NOT_FOUND' } });
  }
}
