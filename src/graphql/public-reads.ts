import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener, HTTPGraphQLRequest } from '@apollo/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OperationTypeNode, printSchema, type GraphQLSchema } from 'graphql';
import { projectRoot } from '../paths.ts';
import type { CatalogueVersion } from '../http/catalogue-version.ts';
import { PRIVATE_NO_STORE, type PublicCache } from '../http/public-cache.ts';
import { notModified, tagNow } from '../http/public-tags.ts';
import { persistedQueryHash } from './persisted-query.ts';
import type { PublicDocuments } from './public-documents.ts';

// Public GraphQL reads by GET (docs/operations.md, HTTP caching): Apollo's plugin tags the answer of a public
// operation, with the catalogue's version taken before the operation runs; the /graphql route answers a
// request naming a tag that still holds with 304 before Apollo sees it.

export type PublicReads = { cache: PublicCache; documents: PublicDocuments };

/**
 * What public answers depend on besides the data and the request, for their tags: the gateway's version
 * (package.json) and the schemas it serves. Every instance of one release computes the same.
 */
export function releaseOf(schemas: GraphQLSchema[]): string {
  const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  const hash = createHash('sha256').update(version);
  for (const schema of schemas) hash.update(`\0${printSchema(schema)}`);
  return hash.digest('base64url');
}

/** What a GET asked, for its tag: its query string as Apollo reads it, and the Accept header that picks the answer's media type. */
const askedBy = (search: string, accept: string | undefined): string[] => ['graphql', search, accept ?? ''];

/**
 * Every other answer is `private, no-store`, including those Apollo gave a Cache-Control of its own (an APQ
 * hash it does not know: `private, no-cache, must-revalidate`). One listener for all: it reads only its argument.
 */
const privateAnswer: GraphQLRequestListener<BaseContext> = {
  async willSendResponse({ response }) {
    response.http.headers.set('cache-control', PRIVATE_NO_STORE);
  },
};

/**
 * The Apollo plugin of /graphql's server: a public answer's Cache-Control and ETag, and 304 when If-None-Match
 * holds its tag; `private, no-store` for every other answer, and for all of them without `reads` (caching off).
 */
export function publicReadsPlugin(reads: PublicReads | undefined): ApolloServerPlugin<BaseContext> {
  return {
    async requestDidStart({ request }) {
      const http = request.http;
      if (!http) return;
      if (!reads || http.method !== 'GET' || !reads.cache.mayBePublic(http.method, credentialsOf(http))) return privateAnswer;
      const { cache, documents } = reads;
      let version: string | undefined;
      return {
        // After validation, before the operation runs: the version the answer's data is at least as new as.
        async didResolveOperation({ schema, document, queryHash }) {
          if (documents.judge(schema, document, queryHash, request.operationName)) version = await cache.version();
        },
        async willSendResponse(context) {
          const { response } = context;
          const { body } = response;
          if (version === undefined || body.kind !== 'single' || body.singleResult.errors?.length || (response.http.status ?? 200) !== 200)
            return privateAnswer.willSendResponse!(context);
          const tag = cache.tagFor(version, askedBy(http.search, http.headers.get('accept')));
          for (const [name, value] of cache.publicHeaders(tag)) response.http.headers.set(name, value);
          if (cache.notModified({ 'if-none-match': http.headers.get('if-none-match') }, tag)) response.http.status = 304;
        },
      };
    },
  };
}

/**
 * The plugin of both Apollo servers (/graphql's and the REST shim's): once this instance has run a mutation,
 * a client's next read must not be tagged with the version from before it, which the change's notification
 * would only replace a moment later.
 */
export function catalogueChangesPlugin(catalogue: Pick<CatalogueVersion, 'mayHaveMoved'>): ApolloServerPlugin<BaseContext> {
  const listener: GraphQLRequestListener<BaseContext> = {
    async willSendResponse({ operation }) {
      if (operation?.operation === OperationTypeNode.MUTATION) catalogue.mayHaveMoved();
    },
  };
  return { requestDidStart: async () => listener };
}

const credentialsOf = (http: HTTPGraphQLRequest) => ({
  authorization: http.headers.get('authorization'),
  cookie: http.headers.get('cookie'),
});

/** The key the plugin judged the document under: the SHA-256 of its text, or the APQ hash that names it; undefined when neither is sent once. */
function documentHashOf(params: URLSearchParams): string | undefined {
  const [query, ...moreQueries] = params.getAll('query');
  if (moreQueries.length > 0) return undefined;
  if (query) return createHash('sha256').update(query).digest('hex');
  const [extensions, ...more] = params.getAll('extensions');
  if (!extensions || more.length > 0) return undefined;
  const hash = persistedQueryHash(extensions);
  return typeof hash === 'string' ? hash : undefined;
}

/**
 * The /graphql handler behind the check: a GET that may be public varies on credentials; one naming the
 * tag its public operation has now is answered 304 before it runs; a 304 from the plugin goes without a body.
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument -- any route's handler, whatever its generics (the Apollo handler's are its own). */
export function withPublicReads<Handler extends (this: FastifyInstance, request: FastifyRequest<any>, reply: FastifyReply<any>) => unknown>(
  reads: PublicReads | undefined,
  graphql: Handler,
): Handler {
  if (!reads) return graphql;
  const { cache, documents } = reads;
  return async function (this: FastifyInstance, request: FastifyRequest<any>, reply: FastifyReply<any>) {
    if (request.method !== 'GET' || !cache.mayBePublic(request.method, request.headers)) return graphql.call(this, request, reply);
    // The Accept header picks the media type of the answer (and a browser's gets the playground).
    cache.addVary(reply, ['Accept']);
    if (cache.isConditional(request.headers)) {
      // As Apollo's integration reads it (src/graphql/route.ts may have put a trusted text in place of an id).
      const search = new URL(request.url, 'http://gateway.invalid').search;
      const params = new URLSearchParams(search);
      const hash = documentHashOf(params);
      const operationName = params.getAll('operationName');
      if (hash && operationName.length <= 1 && documents.judgedPublic(hash, operationName[0])) {
        const tag = await tagNow(cache, askedBy(search, request.headers.accept));
        const answered = tag && notModified(cache, request.headers, reply as FastifyReply, tag, 'before');
        if (answered) return answered;
      }
    }
    const answer = await graphql.call(this, request, reply);
    if (reply.statusCode !== 304 || reply.sent) return answer;
    reply.removeHeader('content-type');
    return reply.send();
  } as Handler;
}
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument */
