import {
  ApolloServer,
  type ApolloServerOptions,
  type ApolloServerPlugin,
  type BaseContext,
  type GraphQLRequestListener,
} from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext } from '../modules/context.ts';
import { badRequest, ErrorCode } from '../core/errors.ts';
import { formatErrorFor } from './format-error.ts';
import { OperationTypeNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { TrustedDocuments } from './trusted-documents.ts';
import { compiledExecution } from './executor.ts';
import { countAnswerBytes, withAnswerLimit } from './answer-size.ts';
import { armorFor, graphqlLimits } from './limits.ts';
import { RETRY_AFTER_SECONDS } from '../http/errors.ts';

// The gateway's own rules for an operation's answer. Their hooks read only the request they are given, so
// every request shares one listener object (Apollo asks for one per request).
const answerRules: GraphQLRequestListener<RequestContext> = {
  /** Subscriptions are the WebSocket's and the event streams' (src/graphql/subscriptions/), as queries and mutations are HTTP's. */
  async didResolveOperation({ operation }) {
    if (operation?.operation === OperationTypeNode.SUBSCRIPTION) {
      // Apollo answers with the status in `extensions.http` (and leaves it out of the error it sends).
      throw badRequest(
        'Subscriptions are served over WebSocket (graphql-transport-ws) at /graphql, or as event streams (graphql-sse) at /graphql/stream',
        {
          http: { status: 400 },
        },
      );
    }
  },
  /** An answer whose errors say the database (or the caller's identity provider) is down is HTTP 503, as REST's is: clients retry. */
  async willSendResponse({ response }) {
    if (
      response.body.kind === 'single' &&
      response.body.singleResult.errors?.some((error) => error.extensions?.code === ErrorCode.UNAVAILABLE)
    ) {
      response.http.status = 503;
      response.http.headers.set('retry-after', RETRY_AFTER_SECONDS);
    }
  },
};
const answerRulesPlugin: ApolloServerPlugin<RequestContext> = { requestDidStart: async () => answerRules };

/** An Apollo server with the gateway's limits, masking and plugins: one for /graphql, one for the REST shim's schema. */
export function createApollo({
  schema,
  playground,
  logger,
  plugins = [],
  trusted,
  responseLimit,
}: {
  schema: GraphQLSchema;
  playground: boolean;
  logger: FastifyBaseLogger;
  /** More plugins (the metrics', src/metrics/metrics.ts). */
  plugins?: ApolloServerPlugin<BaseContext>[];
  /** The trusted documents, parsed, validated and compiled before the first request (src/graphql/trusted-documents.ts). */
  trusted?: TrustedDocuments | undefined;
  /** RESPONSE_LIMIT: the largest answer sent, in bytes (src/graphql/answer-size.ts); none when absent. */
  responseLimit?: number | undefined;
}) {
  const armor = armorFor();
  const execution = compiledExecution(schema);
  if (responseLimit !== undefined) countAnswerBytes(schema);
  for (const listed of trusted?.documents ?? []) execution.keepCompiled(listed.document, listed.hash);

  return new ApolloServer<RequestContext>({
    // Operations run compiled by graphql-jit (src/graphql/executor.ts), through Apollo's gateway interface.
    gateway: responseLimit === undefined ? execution : withAnswerLimit(execution, responseLimit),
    ...(trusted ? { documentStore: documentsWithTrusted(trusted) } : {}),
    // These packages' types resolve to @apollo/server's CommonJS declarations; the objects are the same.
    plugins: [
      ...armor.plugins,
      // The playground is the gateway's own (src/playground), never Apollo's landing page, which loads from a CDN.
      ApolloServerPluginLandingPageDisabled(),
      // No @cacheControl hints in the schema: the default plugin would still wrap every field resolver.
      ApolloServerPluginCacheControlDisabled(),
      // Apollo adds its federated tracing (ftv1) to a subgraph by default: traces are OpenTelemetry's here.
      ApolloServerPluginInlineTraceDisabled(),
      answerRulesPlugin,
      ...plugins,
    ] as unknown as ApolloServerPlugin<RequestContext>[],
    validationRules: armor.validationRules,
    // A syntax error, or a document over the token limit, is GRAPHQL_PARSE_FAILED (HTTP 400).
    parseOptions: { maxTokens: graphqlLimits.maxTokens },
    // Compact JSON: Apollo's default indents every answer, which costs CPU and bytes on each request
    // (docs/performance.md); the playground and clients format answers themselves.
    stringifyResult: (result) => JSON.stringify(result),
    allowBatchedHttpRequests: false,
    // Apollo's guard against documents whose fragments multiply into millions of selections.
    maxRecursiveSelections: true,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: !playground,
    introspection: playground,
    // The gateway's own check stands in front of /graphql (src/graphql/csrf.ts): Apollo's refuses the GET
    // queries standard clients send. Stored REST operations run through executeOperation, which it never saw.
    csrfPrevention: false,
    // main.ts owns shutdown (drain Fastify, then close the database); Apollo's own signal handler races it.
    stopOnTerminationSignals: false,
    formatError: formatErrorFor((error) => logger.error({ err: error }, 'unexpected error in a GraphQL operation')),
  });
}

/**
 * Apollo's store of parsed and validated documents, with the trusted ones in it from the start and never
 * evicted: their first request skips parsing and validation. Others are kept as Apollo's own store keeps
 * them (an LRU of about 30 MB). Apollo prefixes its keys with the schema's hash: a key ends with the document's.
 */
function documentsWithTrusted(trusted: TrustedDocuments): NonNullable<ApolloServerOptions<RequestContext>['documentStore']> {
  const pinned = new Map(trusted.documents.map((listed) => [listed.hash, listed.document]));
  const others = new LRUCache<string, DocumentNode>({
    maxSize: 30 * 2 ** 20,
    sizeCalculation: (document) => (document.loc?.end ?? 1_000) * 8,
  });
  const hashOf = (key: string) => key.slice(key.lastIndexOf(':') + 1);
  return {
    get: async (key) => pinned.get(hashOf(key)) ?? others.get(key),
    set: async (key, value) => void others.set(key, value),
    delete: async (key) => others.delete(key),
  };
}
