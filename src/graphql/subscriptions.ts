import type { FastifyInstance } from 'fastify';
import {
  GraphQLError,
  Kind,
  OperationTypeNode,
  getOperationAST,
  parse,
  specifiedRules,
  subscribe,
  validate,
  getArgumentValues,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import fastifyWebsocket, { type WebsocketHandler } from '@fastify/websocket';
import { CloseCode } from 'graphql-ws';
import { LRUCache } from 'lru-cache';
import { makeHandler } from 'graphql-ws/use/@fastify/websocket';
import type { Viewer } from '../auth/viewer.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Tracing } from '../telemetry/tracing.ts';
import { authorizationKey } from '../http/hardening.ts';
import type { TokenCache } from '../auth/token-cache.ts';
import type { GraphQLContext, ModuleSettings } from '../modules/context.ts';
import { createContext } from './request-context.ts';
import { rethrowUnavailable } from '../db/errors.ts';
import { formatErrorFor } from './format-error.ts';
import { graphqlLimits } from './server.ts';

// Live lessons' transport (docs/contract.md, Live lessons): graphql-ws's graphql-transport-ws protocol on
// the HTTP server's own port and path. The upgrade request is routed by Fastify like any other, so its
// hooks (the drain, the rate limit, security headers) apply to it. Only subscriptions are served on the
// socket: queries and mutations stay on HTTP, where admission applies too.

type ConnectionExtra = { viewer?: Viewer; tokenKey?: string };

export type SubscriptionServerOptions = {
  schema: GraphQLSchema;
  /** The same validation rules /graphql applies (graphql-armor's, src/graphql/server.ts). */
  validationRules: readonly ValidationRule[];
  database: Pick<Database, 'prisma' | 'read'>;
  settings: ModuleSettings;
  tokenCache: TokenCache;
  config: Pick<
    Config,
    | 'subscriptionConnectionsPerToken'
    | 'subscriptionsPerConnection'
    | 'subscriptionKeepAliveMs'
    | 'subscriptionInitTimeoutMs'
    | 'production'
  >;
  /** When tracing is on: a span for each subscription's start and each connection_init (src/telemetry/). */
  tracing?: Tracing | undefined;
};

/** Closed when a token already holds SUBSCRIPTION_CONNECTIONS_PER_TOKEN sockets. */
export const TOO_MANY_CONNECTIONS = 4429;

/**
 * The largest message a client may send (`ws` closes the socket with 1009 beyond it). A subscribe
 * message is a document and its variables: the HTTP body limit's job, at a size a document needs.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/** WebSocket's close code for a server going down (RFC 6455). */
const GOING_AWAY = 1001;

/** How long shutdown waits for subscriptions being set up before closing their sockets. */
const SETUP_GRACE_MS = 5_000;

const authorizationOf = (payload: unknown, header: string | undefined): string | undefined => {
  const given = payload && typeof payload === 'object' ? (payload as Record<string, unknown>).authorization : undefined;
  return typeof given === 'string' ? given : header;
};

/** Open WebSocket connections and running subscriptions, read by the metrics (src/metrics/metrics.ts). */
export type LiveCounts = { connections(): number; subscriptions(): number };

/**
 * Registers the WebSocket plugin and returns the handler for the /graphql route's upgrades (src/app.ts
 * declares the route, so that HTTP and WebSocket share its path and hooks), and the live counts.
 */

export async function registerSubscriptions(
  app: FastifyInstance,
  options: SubscriptionServerOptions,
): Promise<{ handler: WebsocketHandler; counts: LiveCounts }> {
  const { schema, validationRules, database, settings, tokenCache, config, tracing } = options;
  const formatError = formatErrorFor((error) => app.log.error({ err: error }, 'unexpected error in a subscription'));
  const format = (errors: readonly GraphQLError[]) => errors.map((error) => formatError(error.toJSON(), error));
  const connectionsByToken = new Map<string, number>();
  // Every student of a lesson sends the same subscription text: parsed and validated once, the one
  // document is shared by their subscriptions (measured: a third less memory per subscription, and less
  // CPU per subscribe; README, Live lessons). Bounded by entries and by the text's size.
  const validDocuments = new LRUCache<string, DocumentNode>({
    max: 1_000,
    maxSize: 4 * 1024 * 1024,
    sizeCalculation: (_, query) => query.length,
  });
  const checkDocument = (query: string): { document: DocumentNode } | { errors: GraphQLError[] } => {
    const cached = validDocuments.get(query);
    if (cached) return { document: cached };
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: graphqlLimits.maxTokens });
    } catch (error) {
      const message = error instanceof GraphQLError ? error.message : 'Syntax error';
      return { errors: [new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })] };
    }
    const errors = validate(schema, document, [...specifiedRules, ...validationRules]);
    if (errors.length > 0)
      return {
        errors: errors.map(
          (error) => new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
        ),
      };
    validDocuments.set(query, document);
    return { document };
  };
  let settingUp = 0;
  let running = 0;
  /** With tracing on, each subscription's trace and span ids, by its context (one per subscription). */
  const traceOfSubscription = new WeakMap<object, Record<string, string>>();

  // At shutdown (src/main.ts): subscriptions still being set up finish, then every socket is closed with
  // 1001. Done before src/http/connections.ts destroys the sockets that never made an HTTP request.
  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES },
    preClose: async function closeSockets(this: FastifyInstance) {
      const until = Date.now() + SETUP_GRACE_MS;
      while (settingUp > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const socket of this.websocketServer.clients) socket.close(GOING_AWAY, 'Server is shutting down');
    },
  });

  const handleSocket = makeHandler<Record<string, unknown> | undefined, ConnectionExtra>(
    {
      connectionInitWaitTimeout: config.subscriptionInitTimeoutMs,
      // graphql-js's subscribe (graphql-ws's default), in the operation's span when tracing is on: its
      // access checks run there. Events are resolved from their payload alone, with no statement.
      ...(tracing
        ? {
            subscribe: (args: ExecutionArgs) =>
              tracing.graphqlOperation(
                async () => {
                  // The start and end log lines are written after the span has ended: they take its ids from here.
                  traceOfSubscription.set(args.contextValue as object, tracing.logFields());
                  return subscribe(args);
                },
                { name: getOperationAST(args.document, args.operationName)?.name?.value, type: 'subscription' },
              ),
          }
        : {}),
      isProd: config.production,
      onConnect: async (ctx) => {
        const authorization = authorizationOf(ctx.connectionParams, ctx.extra.request.headers.authorization);
        const authenticate = () => createContext(database, settings, authorization, tokenCache);
        const authenticating = tracing ? tracing.span('graphql-ws connection_init', authenticate) : authenticate();
        const context = await authenticating.catch(rethrowUnavailable);
        // A presented but wrong token: 4403, as graphql-ws closes a refused connection.
        if (context.viewer.kind === 'invalid') return false;
        if (context.viewer.kind === 'user' && authorization) {
          // Counted by a hash of the header, so that no token sits in memory as a key.
          const key = authorizationKey(authorization);
          const held = connectionsByToken.get(key) ?? 0;
          if (held >= config.subscriptionConnectionsPerToken) {
            ctx.extra.socket.close(TOO_MANY_CONNECTIONS, 'Too many connections for this token');
            return false;
          }
          connectionsByToken.set(key, held + 1);
          ctx.extra.tokenKey = key;
        }
        ctx.extra.viewer = context.viewer;
        return true;
      },
      onDisconnect: (ctx) => {
        const key = ctx.extra.tokenKey;
        if (!key) return;
        const held = (connectionsByToken.get(key) ?? 1) - 1;
        if (held <= 0) connectionsByToken.delete(key);
        else connectionsByToken.set(key, held);
      },
      onSubscribe: async (ctx, _id, payload) => {
        if (Object.keys(ctx.subscriptions).length > config.subscriptionsPerConnection)
          return [new GraphQLError('Too many subscriptions on this connection', { extensions: { code: 'BAD_REQUEST' } })];
        const checked = checkDocument(payload.query);
        if (!('document' in checked)) return checked.errors;
        const { document } = checked;
        const operation = getOperationAST(document, payload.operationName);
        if (operation?.operation !== OperationTypeNode.SUBSCRIPTION)
          return [
            new GraphQLError('Only subscriptions are served over WebSocket; send queries and mutations over HTTP', {
              extensions: { code: 'BAD_REQUEST' },
            }),
          ];
        settingUp += 1;
        try {
          const base = await createContext(database, settings, undefined);
          const contextValue: GraphQLContext = { ...base, viewer: ctx.extra.viewer ?? { kind: 'anonymous' } };
          return {
            schema,
            document,
            operationName: payload.operationName ?? null,
            variableValues: payload.variables ?? null,
            contextValue,
          };
        } finally {
          settingUp -= 1;
        }
      },
      onOperation: (ctx, id, payload, args, operationResult) => {
        // graphql-ws hands over the awaited result of graphql-js's subscribe().
        const result = operationResult as AsyncIterableIterator<ExecutionResult> | ExecutionResult;
        const classroomActivityId = lessonEventsArgument(args, 'classroomActivityId');
        const viewer = ctx.extra.viewer;
        const who = viewer?.kind === 'user' ? viewer.user.id : null;
        const trace = traceOfSubscription.get(args.contextValue as object);
        if (!(Symbol.asyncIterator in result)) {
          const code = result.errors?.[0]?.extensions?.code;
          app.log.info({ subscription: id, operation: payload.operationName, userId: who, code, ...trace }, 'subscription refused');
          return;
        }
        app.log.info(
          { subscription: id, operation: payload.operationName, userId: who, classroomActivityId, ...trace },
          'subscription started',
        );
        running += 1;
        return withEnd(result, () => {
          running -= 1;
          app.log.info({ subscription: id, userId: who, ...trace }, 'subscription ended');
        });
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: format(result.errors) } : undefined),
      onError: (_ctx, _id, _payload, errors) => format(errors),
    },
    config.subscriptionKeepAliveMs,
  );
  const handler: WebsocketHandler = function handleUpgraded(this: FastifyInstance, socket, request) {
    const handled = handleSocket.call(this, socket, request);
    // An 'error' on an open socket is the client's doing (a message over MAX_MESSAGE_BYTES, a bad frame):
    // `ws` closes the socket itself (1009, 1002). Logged as that, not as the internal error the two
    // libraries' own listeners would report it as.
    socket.removeAllListeners('error');
    socket.on('error', (error) => request.log.info({ reason: error.message }, 'websocket closed: the client broke the protocol'));
    return handled;
  };
  return { handler, counts: { connections: () => app.websocketServer.clients.size, subscriptions: () => running } };
}

/** An argument of the operation's lessonEvents field, as the resolver receives it (for the log line). */
function lessonEventsArgument(args: ExecutionArgs, name: string): unknown {
  const operation = getOperationAST(args.document, args.operationName);
  const field = operation?.selectionSet.selections.find(
    (selection): selection is FieldNode => selection.kind === Kind.FIELD && selection.name.value === 'lessonEvents',
  );
  const definition = args.schema.getSubscriptionType()?.getFields().lessonEvents;
  if (!field || !definition) return undefined;
  try {
    return getArgumentValues(definition, field, args.variableValues ?? {})[name];
  } catch {
    return undefined;
  }
}

/** The same iterator, calling `onEnd` once when it ends, however it ends (kept an object, not an async generator, so return() is never queued behind a pending next()). */
function withEnd<T>(iterator: AsyncIterableIterator<T>, onEnd: () => void): AsyncIterableIterator<T> {
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      onEnd();
    }
  };
  const wrapped: AsyncIterableIterator<T> = {
    next: async () => {
      try {
        const step = await iterator.next();
        if (step.done) end();
        return step;
      } catch (error) {
        end();
        throw error;
      }
    },
    return: async (value?: unknown) => {
      end();
      return (await iterator.return?.(value)) ?? { value: undefined, done: true };
    },
    throw: async (error?: unknown) => {
      end();
      if (iterator.throw) return iterator.throw(error);
      throw error;
    },
    [Symbol.asyncIterator]: () => wrapped,
  };
  return wrapped;
}

export { CloseCode };
