import type { FastifyInstance } from 'fastify';
import {
  GraphQLError,
  Kind,
  OperationTypeNode,
  getArgumentValues,
  getOperationAST,
  subscribe,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import fastifyWebsocket, { type WebsocketHandler } from '@fastify/websocket';
import { CloseCode } from 'graphql-ws';
import { makeHandler } from 'graphql-ws/use/@fastify/websocket';
import type { Authenticator } from '../../auth/authenticator.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Config } from '../../config.ts';
import { callAt } from '../../core/call-at.ts';
import { badRequest } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import { rethrowUnavailable } from '../../db/errors.ts';
import { originTrusted } from '../../http/authentication.ts';
import type { ModuleSettings } from '../../modules/context.ts';
import type { Tracing } from '../../telemetry/tracing.ts';
import type { OutsideReason, TrustedDocuments } from '../trusted-documents.ts';
import { formatErrorFor } from '../format-error.ts';
import { createContext } from '../request-context.ts';
import { subscriptionDocuments } from './documents.ts';
import { withEnd } from './iterators.ts';
import { SocketsPerCaller } from './per-caller.ts';

// Live lessons' transport (docs/contract.md, Live lessons): graphql-ws's graphql-transport-ws protocol on
// the HTTP server's own port and path, its upgrade routed by Fastify like any request (the drain, the rate
// limit, security headers apply). Only subscriptions are served on the socket: the rest stays on HTTP.

type ConnectionExtra = { viewer?: Viewer; callerKey?: string; lapse?: NodeJS.Timeout };

export type SubscriptionServerOptions = {
  schema: GraphQLSchema;
  /** The same validation rules /graphql applies (graphql-armor's, src/graphql/server.ts). */
  validationRules: readonly ValidationRule[];
  database: Pick<Database, 'prisma' | 'read'>;
  settings: ModuleSettings;
  authenticator: Authenticator;
  /** Origins whose upgrades may be authenticated by cookies, beside the gateway's own (CORS_ORIGINS). */
  corsOrigins: readonly string[];
  config: Pick<
    Config,
    | 'subscriptionConnectionsPerToken'
    | 'subscriptionsPerConnection'
    | 'subscriptionKeepAliveMs'
    | 'subscriptionInitTimeoutMs'
    | 'production'
  >;
  /** When set, subscriptions are held to the trusted documents as /graphql's operations are. */
  trusted?: TrustedDocuments | undefined;
  onOutsideTrusted?: (outcome: 'refused' | 'ran', reason: OutsideReason) => void;
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

/** WebSocket's close code for a service that cannot serve now (the identity provider down): try again later. */
const TRY_AGAIN_LATER = 1013;

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
 * Registers the WebSocket plugin and returns the handler for the /graphql route's upgrades
 * (src/graphql/route.ts), and the live counts.
 */
export async function registerSubscriptions(
  app: FastifyInstance,
  {
    schema,
    validationRules,
    database,
    settings,
    authenticator,
    corsOrigins,
    config,
    tracing,
    trusted,
    onOutsideTrusted,
  }: SubscriptionServerOptions,
): Promise<{ handler: WebsocketHandler; counts: LiveCounts }> {
  const formatError = formatErrorFor((error) => app.log.error({ err: error }, 'unexpected error in a subscription'));
  const format = (errors: readonly GraphQLError[]) => errors.map((error) => formatError(error.toJSON(), error));
  const socketsPerCaller = new SocketsPerCaller(config.subscriptionConnectionsPerToken);
  const checkDocument = subscriptionDocuments(schema, validationRules);
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

  const subscribeTraced = (args: ExecutionArgs) =>
    tracing
      ? tracing.graphqlOperation(
          async () => {
            // The start and end log lines are written after the span has ended: they take its ids from here.
            traceOfSubscription.set(args.contextValue as object, tracing.logFields());
            return subscribe(args);
          },
          { name: getOperationAST(args.document, args.operationName)?.name?.value, type: 'subscription' },
        )
      : subscribe(args);

  const handleSocket = makeHandler<Record<string, unknown> | undefined, ConnectionExtra>(
    {
      connectionInitWaitTimeout: config.subscriptionInitTimeoutMs,
      // graphql-js's subscribe (graphql-ws's default), counted while it runs its access checks (shutdown waits for
      // them), in the operation's span when tracing is on. Events are resolved from their payload, with no statement.
      subscribe: async (args: ExecutionArgs) => {
        settingUp += 1;
        try {
          return await subscribeTraced(args);
        } finally {
          settingUp -= 1;
        }
      },
      isProd: config.production,
      onConnect: async (ctx) => {
        // The identity is settled here: the payload's authorization, else the upgrade's, else its cookies,
        // when its Origin may use them (docs/identity.md, WebSocket).
        const { request, socket } = ctx.extra;
        const sources = {
          authorization: authorizationOf(ctx.connectionParams, request.headers.authorization),
          cookie: request.headers.cookie,
        };
        const authenticate = () => authenticator.authenticate(sources, { cookies: originTrusted(request, corsOrigins) });
        const { viewer, callerKey, expiresAt } = await (
          tracing ? tracing.span('graphql-ws connection_init', authenticate) : authenticate()
        ).catch(rethrowUnavailable);
        // A presented but wrong credential: 4403, as graphql-ws closes a refused connection.
        if (viewer.kind === 'invalid') return false;
        if (viewer.kind === 'unavailable') {
          socket.close(TRY_AGAIN_LATER, 'The identity provider is unavailable, try again later');
          return false;
        }
        if (viewer.kind === 'user' && callerKey) {
          if (!socketsPerCaller.take(callerKey)) {
            socket.close(TOO_MANY_CONNECTIONS, 'Too many connections for this token');
            return false;
          }
          ctx.extra.callerKey = callerKey;
        }
        // A JWT's socket ends when the JWT does.
        if (expiresAt) ctx.extra.lapse = callAt(expiresAt, () => socket.close(CloseCode.Forbidden, 'The token has expired'));
        ctx.extra.viewer = viewer;
        return true;
      },
      onDisconnect: (ctx) => {
        clearTimeout(ctx.extra.lapse);
        if (ctx.extra.callerKey) socketsPerCaller.release(ctx.extra.callerKey);
      },
      onSubscribe: (ctx, _id, payload) => {
        if (Object.keys(ctx.subscriptions).length > config.subscriptionsPerConnection)
          return [badRequest('Too many subscriptions on this connection')];
        let query = payload.query;
        if (trusted) {
          const extensions = payload.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined;
          const { documentId } = payload as { documentId?: unknown };
          const resolution = trusted.resolve({
            query: query === '' ? undefined : query,
            documentId,
            sha256Hash: extensions?.persistedQuery?.sha256Hash,
          });
          if (resolution.kind === 'refused') {
            onOutsideTrusted?.('refused', resolution.reason);
            return [resolution.error];
          }
          if (resolution.kind === 'outside') onOutsideTrusted?.('ran', resolution.reason);
          if (resolution.kind === 'listed') query = resolution.text;
        }
        const checked = checkDocument(query);
        if (!('document' in checked)) return checked.errors;
        const { document } = checked;
        if (getOperationAST(document, payload.operationName)?.operation !== OperationTypeNode.SUBSCRIPTION)
          return [badRequest('Only subscriptions are served over WebSocket; send queries and mutations over HTTP')];
        return {
          schema,
          document,
          operationName: payload.operationName ?? null,
          variableValues: payload.variables ?? null,
          contextValue: createContext(database, settings, ctx.extra.viewer ?? { kind: 'anonymous' }),
        };
      },
      onOperation: (ctx, id, payload, args, operationResult) => {
        // graphql-ws hands over the awaited result of graphql-js's subscribe().
        const result = operationResult as AsyncIterableIterator<ExecutionResult> | ExecutionResult;
        const viewer = ctx.extra.viewer;
        const who = viewer?.kind === 'user' ? viewer.user.id : null;
        const trace = traceOfSubscription.get(args.contextValue as object);
        if (!(Symbol.asyncIterator in result)) {
          const code = result.errors?.[0]?.extensions?.code;
          app.log.info({ subscription: id, operation: payload.operationName, userId: who, code, ...trace }, 'subscription refused');
          return;
        }
        const classroomActivityId = lessonEventsArgument(args, 'classroomActivityId');
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
