import type { FastifyInstance } from 'fastify';
import {
  GraphQLError,
  OperationTypeNode,
  getOperationAST,
  parse,
  specifiedRules,
  subscribe,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Viewer } from '../auth/viewer.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Tracing } from '../telemetry/tracing.ts';
import { createContext, type ContextSettings, type GraphQLContext } from './context.ts';
import { formatErrorFor, rethrowUnavailable } from './errors.ts';
import { graphqlLimits } from './server.ts';

// Live lessons' transport (docs/contract.md, Live lessons): graphql-ws's graphql-transport-ws protocol on
// the HTTP server's own port and path. Only subscriptions are served here: queries and mutations stay on
// HTTP, where the rate limit and admission apply.

type ConnectionExtra = { viewer?: Viewer; tokenKey?: string };

export type SubscriptionServerOptions = {
  schema: GraphQLSchema;
  /** The same validation rules /graphql applies (graphql-armor's, src/graphql/server.ts). */
  validationRules: readonly ValidationRule[];
  database: Pick<Database, 'prisma' | 'read'>;
  settings: ContextSettings;
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

const authorizationOf = (payload: unknown, header: string | undefined): string | undefined => {
  const given = payload && typeof payload === 'object' ? (payload as Record<string, unknown>).authorization : undefined;
  return typeof given === 'string' ? given : header;
};

/** Open WebSocket connections and running subscriptions, read by the metrics (src/metrics/metrics.ts). */
export type LiveCounts = { connections(): number; subscriptions(): number };

export function registerSubscriptions(app: FastifyInstance, options: SubscriptionServerOptions): LiveCounts {
  const { schema, validationRules, database, settings, config, tracing } = options;
  const formatError = formatErrorFor((error) => app.log.error({ err: error }, 'unexpected error in a subscription'));
  const format = (errors: readonly GraphQLError[]) => errors.map((error) => formatError(error.toJSON(), error));
  const connectionsByToken = new Map<string, number>();
  let settingUp = 0;
  let running = 0;

  const wss = new WebSocketServer({ server: app.server, path: '/graphql' });
  const server = useServer<Record<string, unknown> | undefined, ConnectionExtra>(
    {
      connectionInitWaitTimeout: config.subscriptionInitTimeoutMs,
      // graphql-js's subscribe (graphql-ws's default), in the operation's span when tracing is on: its
      // access checks run there. Events are resolved from their payload alone, with no statement.
      ...(tracing
        ? {
            subscribe: (args: ExecutionArgs) =>
              tracing.graphqlOperation(async () => subscribe(args), {
                name: getOperationAST(args.document, args.operationName)?.name?.value,
                type: 'subscription',
              }),
          }
        : {}),
      isProd: config.production,
      onConnect: async (ctx) => {
        const authorization = authorizationOf(ctx.connectionParams, ctx.extra.request.headers.authorization);
        const authenticate = () => createContext(database, settings, authorization);
        const authenticating = tracing ? tracing.span('graphql-ws connection_init', authenticate) : authenticate();
        const context = await authenticating.catch(rethrowUnavailable);
        // A presented but wrong token: 4403, as graphql-ws closes a refused connection.
        if (context.viewer.kind === 'invalid') return false;
        if (context.viewer.kind === 'user' && authorization) {
          const held = connectionsByToken.get(authorization) ?? 0;
          if (held >= config.subscriptionConnectionsPerToken) {
            ctx.extra.socket.close(TOO_MANY_CONNECTIONS, 'Too many connections for this token');
            return false;
          }
          connectionsByToken.set(authorization, held + 1);
          ctx.extra.tokenKey = authorization;
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
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: graphqlLimits.maxTokens });
        } catch (error) {
          const message = error instanceof GraphQLError ? error.message : 'Syntax error';
          return [new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })];
        }
        const errors = validate(schema, document, [...specifiedRules, ...validationRules]);
        if (errors.length > 0)
          return errors.map(
            (error) => new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
          );
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
        const classroomActivityId = (args.variableValues as Record<string, unknown> | null | undefined)?.classroomActivityId;
        const viewer = ctx.extra.viewer;
        const who = viewer?.kind === 'user' ? viewer.user.id : null;
        if (!(Symbol.asyncIterator in result)) {
          const code = result.errors?.[0]?.extensions?.code;
          app.log.info({ subscription: id, operation: payload.operationName, userId: who, code }, 'subscription refused');
          return;
        }
        app.log.info({ subscription: id, operation: payload.operationName, userId: who, classroomActivityId }, 'subscription started');
        running += 1;
        return withEnd(result, () => {
          running -= 1;
          app.log.info({ subscription: id, userId: who }, 'subscription ended');
        });
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: format(result.errors) } : undefined),
      onError: (_ctx, _id, _payload, errors) => format(errors),
    },
    wss,
    config.subscriptionKeepAliveMs,
  );

  // At shutdown (src/main.ts): subscriptions still being set up finish, then every socket is closed with
  // 1001. Done before src/http/connections.ts destroys the sockets that never made an HTTP request.
  app.addHook('preClose', async () => {
    const until = Date.now() + 5_000;
    while (settingUp > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    await server.dispose();
  });
  return { connections: () => wss.clients.size, subscriptions: () => running };
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
