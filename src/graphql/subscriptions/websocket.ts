import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyWebsocket, { type WebSocket, type WebsocketHandler } from '@fastify/websocket';
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import { CloseCode, handleProtocols } from 'graphql-ws';
import type { Authenticator } from '../../auth/authenticator.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Config } from '../../config.ts';
import { badRequest, rateLimited } from '../../core/errors.ts';
import { rethrowUnavailable } from '../../db/errors.ts';
import { subscriptionCredentials } from '../../http/ambient-credentials.ts';
import { spreadOver } from '../../http/drain.ts';
import type { Tracing } from '../../telemetry/tracing.ts';
import { countedAs, type ConnectionsPerCaller, type Slot } from './per-caller.ts';
import { SETUP_GRACE_MS, whenLapsed, type SubscriptionService } from './service.ts';
import { makeSocketHandler, type SocketExtra } from './socket.ts';

// Live lessons over WebSocket (docs/contract.md, Live lessons): graphql-ws's graphql-transport-ws protocol
// on the HTTP server's own port and path, its upgrade routed by Fastify like any request. What a
// subscription is (documents, limits, caps per caller, log lines) is the service's (service.ts).

/** `countedAs`: what the socket's slot and its subscribe messages count against (its caller, or its IP). */
type ConnectionExtra = SocketExtra & { request: FastifyRequest; viewer?: Viewer; countedAs?: string; stopLapse?: () => void };

export type WebSocketOptions = {
  service: SubscriptionService;
  authenticator: Authenticator;
  /** Origins whose upgrades may be authenticated by cookies, beside the gateway's own (CORS_ORIGINS). */
  corsOrigins: readonly string[];
  config: Pick<
    Config,
    | 'subscriptionsPerConnection'
    | 'subscriptionKeepAliveMs'
    | 'subscriptionInitTimeoutMs'
    | 'subscriptionSendBufferBytes'
    | 'shutdownSpreadMs'
  >;
  /** When tracing is on: a span for each connection_init (src/telemetry/). */
  tracing?: Tracing | undefined;
};

/** Closed when a caller already holds SUBSCRIPTION_CONNECTIONS_PER_TOKEN connections. */
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

const authorizationOf = (payload: unknown): string | undefined => {
  const given = payload && typeof payload === 'object' ? (payload as Record<string, unknown>).authorization : undefined;
  return typeof given === 'string' ? given : undefined;
};

/**
 * Each socket's slot of its caller (per-caller.ts): made at its upgrade, given back by the first listener of
 * its close, whenever that comes (while connection_init is being authenticated included).
 */
function socketSlots(callers: ConnectionsPerCaller) {
  const slots = new WeakMap<WebSocket, Slot>();
  return {
    open(socket: WebSocket): void {
      const slot = callers.slot();
      slots.set(socket, slot);
      socket.once('close', () => slot.end());
    },
    of: (socket: WebSocket): Slot => slots.get(socket)!,
  };
}

/** Each subscribe counts as a request against its socket's caller (src/http/rate-limit.ts): the error past the limit. */
async function overRateLimit(app: FastifyInstance, extra: ConnectionExtra & { request: FastifyRequest }) {
  if (!extra.countedAs) return undefined;
  const { exceeded, retryAfterSeconds } = await app.countAgainstLimit(extra.request, extra.countedAs);
  return exceeded ? [rateLimited(`Too many requests, retry in ${retryAfterSeconds} seconds`)] : undefined;
}

/**
 * Registers the WebSocket plugin and returns the handler for the /graphql route's upgrades
 * (src/graphql/route.ts), and how many sockets are open.
 */
export async function registerWebSocketSubscriptions(
  app: FastifyInstance,
  { service, authenticator, corsOrigins, config, tracing }: WebSocketOptions,
): Promise<{ handler: WebsocketHandler; connections: () => number }> {
  // At shutdown (src/main.ts): subscriptions still being set up finish, then every socket is closed with
  // 1001, spread over SHUTDOWN_SPREAD (src/http/drain.ts). Not awaited, so that the event streams' ends are
  // spread over the same time: the HTTP server waits for its sockets. Done before src/http/connections.ts
  // destroys the sockets that never made an HTTP request.
  await app.register(fastifyWebsocket, {
    // Pings are answered by src/graphql/subscriptions/socket.ts, under the bound of the socket's send buffer.
    options: { maxPayload: MAX_MESSAGE_BYTES, autoPong: false, handleProtocols: (protocols) => handleProtocols(protocols) },
    preClose: async function closeSockets(this: FastifyInstance) {
      await service.settled(SETUP_GRACE_MS);
      void spreadOver([...this.websocketServer.clients], config.shutdownSpreadMs, (socket) =>
        socket.close(GOING_AWAY, 'Server is shutting down'),
      );
    },
  });

  const slots = socketSlots(service.callers);
  const handleSocket = makeSocketHandler<Record<string, unknown> | undefined, ConnectionExtra>(
    {
      connectionInitWaitTimeout: config.subscriptionInitTimeoutMs,
      subscribe: service.subscribe,
      onConnect: async (ctx) => {
        // The identity is settled here: the payload's authorization, else the upgrade's, else its cookies; the
        // upgrade's ambient credentials only when its Origin may use them (docs/identity.md, WebSocket).
        const { request, socket } = ctx.extra;
        const { sources, cookies } = subscriptionCredentials(request, authorizationOf(ctx.connectionParams), corsOrigins);
        const authenticate = () => authenticator.authenticate(sources, { cookies });
        const { viewer, callerKey, expiresAt } = await (
          tracing ? tracing.span('graphql-ws connection_init', authenticate) : authenticate()
        ).catch(rethrowUnavailable);
        // A presented but wrong credential: 4403, as graphql-ws closes a refused connection.
        if (viewer.kind === 'invalid') return false;
        if (viewer.kind === 'unavailable') {
          socket.close(TRY_AGAIN_LATER, 'The identity provider is unavailable, try again later');
          return false;
        }
        // The socket's slot was made at its upgrade: if it closed while this was authenticated, nothing is taken.
        const key = countedAs(viewer, callerKey, request.ip);
        if (key && !slots.of(socket).take(key)) {
          socket.close(TOO_MANY_CONNECTIONS, 'Too many connections for this caller');
          return false;
        }
        ctx.extra.countedAs = key;
        // A JWT's socket ends when the JWT does.
        if (expiresAt) ctx.extra.stopLapse = whenLapsed(expiresAt, () => socket.close(CloseCode.Forbidden, 'The token has expired'));
        ctx.extra.viewer = viewer;
        return true;
      },
      onDisconnect: (ctx) => ctx.extra.stopLapse?.(),
      onSubscribe: async (ctx, _id, payload) => {
        const limited = await overRateLimit(app, ctx.extra);
        if (limited) return limited;
        // What graphql-ws still handles, those their client has completed included (src/graphql/subscriptions/socket.ts).
        if (ctx.extra.running() > config.subscriptionsPerConnection) return [badRequest('Too many subscriptions on this connection')];
        return service.prepare(payload, ctx.extra.viewer ?? { kind: 'anonymous' }, 'WebSocket');
      },
      // graphql-ws hands over the awaited result of graphql-js's subscribe().
      onOperation: (ctx, id, _payload, args: ExecutionArgs, result) =>
        service.started(id, args, ctx.extra.viewer, result as AsyncIterableIterator<ExecutionResult> | ExecutionResult),
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: service.format(result.errors) } : undefined),
      onError: (_ctx, _id, _payload, errors) => service.format(errors),
    },
    { keepAliveMs: config.subscriptionKeepAliveMs, sendBufferBytes: config.subscriptionSendBufferBytes },
  );
  const handler: WebsocketHandler = function handleUpgraded(socket, request) {
    slots.open(socket);
    // An 'error' on an open socket is the client's doing (a message over MAX_MESSAGE_BYTES, a bad frame):
    // `ws` closes the socket itself (1009, 1002). Logged as that, not as an internal error.
    socket.removeAllListeners('error');
    socket.on('error', (error) => request.log.info({ reason: error.message }, 'websocket closed: the client broke the protocol'));
    handleSocket(socket, { request }, request.log);
  };
  return { handler, connections: () => app.websocketServer.clients.size };
}
