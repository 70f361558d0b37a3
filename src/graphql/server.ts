import { ApolloServer, type ApolloServerPlugin, type BaseContext, type GraphQLRequestListener } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { FastifyBaseLogger } from 'fastify';
import type { GraphQLContext } from '../modules/context.ts';
import { badRequest, ErrorCode } from '../core/errors.ts';
import { formatErrorFor } from './format-error.ts';
import { OperationTypeNode, type GraphQLSchema } from 'graphql';
import { compiledExecution } from './executor.ts';
import { RETRY_AFTER_SECONDS } from '../http/errors.ts';

/** The limits every operation meets, from /graphql and from the REST shim alike (SECURITY.md lists them). */
export const graphqlLimits = {
  maxDepth: 10,
  maxAliases: 15,
  maxTokens: 2_000,
  maxDirectives: 20,
  costLimit: 5_000,
};

// The gateway's own rules for an operation's answer. Their hooks read only the request they are given, so
// every request shares one listener object (Apollo asks for one per request).
const answerRules: GraphQLRequestListener<GraphQLContext> = {
  /** Subscriptions are the WebSocket's (src/graphql/subscriptions/websocket.ts), as queries and mutations are HTTP's. */
  async didResolveOperation({ operation }) {
    if (operation?.operation === OperationTypeNode.SUBSCRIPTION) {
      // Apollo answers with the status in `extensions.http` (and leaves it out of the error it sends).
      throw badRequest('Subscriptions are served over WebSocket (graphql-transport-ws) at /graphql; send them there', {
        http: { status: 400 },
      });
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
const answerRulesPlugin: ApolloServerPlugin<GraphQLContext> = { requestDidStart: async () => answerRules };

/** graphql-armor's plugins and validation rules for the gateway's limits (the WebSocket transport uses its rules too). */
export function armorFor() {
  return new ApolloArmor({
    maxDepth: { n: graphqlLimits.maxDepth },
    maxAliases: { n: graphqlLimits.maxAliases },
    // graphql-armor's token limit re-parses the document in a plugin hook, which turns every syntax error
    // into a 500; graphql-js enforces the same limit while parsing (see `parseOptions` below).
    maxTokens: { enabled: false },
    maxDirectives: { n: graphqlLimits.maxDirectives },
    costLimit: { maxCost: graphqlLimits.costLimit },
    // Apollo's `hideSchemaDetailsFromClientErrors` (below) already removes "Did you mean" suggestions;
    // armor's would be a second plugin run on every request for the same effect.
    blockFieldSuggestion: { enabled: false },
  }).protect();
}

/** An Apollo server with the gateway's limits, masking and plugins: one for /graphql, one for the REST shim's schema. */
export function createApollo({
  schema,
  playground,
  logger,
  plugins = [],
}: {
  schema: GraphQLSchema;
  playground: boolean;
  logger: FastifyBaseLogger;
  /** More plugins (the metrics', src/metrics/metrics.ts). */
  plugins?: ApolloServerPlugin<BaseContext>[];
}) {
  const armor = armorFor();

  return new ApolloServer<GraphQLContext>({
    // Operations run compiled by graphql-jit (src/graphql/executor.ts), through Apollo's gateway interface.
    gateway: compiledExecution(schema),
    // These packages' types resolve to @apollo/server's CommonJS declarations; the objects are the same.
    plugins: [
      ...armor.plugins,
      // The playground is the gateway's own (src/playground), never Apollo's landing page, which loads from a CDN.
      ApolloServerPluginLandingPageDisabled(),
      // No @cacheControl hints in the schema: the default plugin would still wrap every field resolver.
      ApolloServerPluginCacheControlDisabled(),
      answerRulesPlugin,
      ...plugins,
    ] as unknown as ApolloServerPlugin<GraphQLContext>[],
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
