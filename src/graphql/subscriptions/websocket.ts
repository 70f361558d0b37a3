import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyWebsocket, { type WebsocketHandler } from '@fastify/websocket';
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import { CloseCode, handleProtocols } from 'graphql-ws';
import type { Authenticator } from '../../auth/authenticator.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Config } from '../../config.ts';
import { badRequest } from '../../core/errors.ts';
import { rethrowUnavailable } from '../../db/errors.ts';
import { originTrusted } from '../../http/authentication.ts';
import type { Tracing } from '../../telemetry/tracing.ts';
import { SETUP_GRACE_MS, whenLapsed, type SubscriptionService } from './service.ts';
import { makeSocketHandler, type SocketExtra } from './socket.ts';

// Live lessons over WebSocket (docs/contract.md, Live lessons): graphql-ws's graphql-transport-ws protocol
// on the HTTP server's own port and path, its upgrade routed by Fastify like any request. What a
// subscription is (documents, limits, caps per caller, log lines) is the service's (service.ts).

type ConnectionExtra = SocketExtra & { request: FastifyRequest; viewer?: Viewer; callerKey?: string; stopLapse?: () => void };

export type WebSocketOptions = {
  service: SubscriptionService;
  authenticator: Authenticator;
  /** Origins whose upgrades may be authenticated by cookies, beside the gateway's own (CORS_ORIGINS). */
  corsOrigins: readonly string[];
  config: Pick<
    Config,
    'subscriptionsPerConnection' | 'subscriptionKeepAliveMs' | 'subscriptionInitTimeoutMs' | 'subscriptionSendBufferBytes'
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

const authorizationOf = (payload: unknown, header: string | undefined): string | undefined => {
  const given = payload && typeof payload === 'object' ? (payload as Record<string, unknown>).authorization : undefined;
  return typeof given === 'string' ? given : header;
};

/**
 * Registers the WebSocket plugin and returns the handler for the /graphql route's upgrades
 * (src/graphql/route.ts), and how many sockets are open.
 */
export async function registerWebSocketSubscriptions(
  app: FastifyInstance,
  { service, authenticator, corsOrigins, config, tracing }: WebSocketOptions,
): Promise<{ handler: WebsocketHandler; connections: () => number }> {
  // At shutdown (src/main.ts): subscriptions still being set up finish, then every socket is closed with
  // 1001. Done before src/http/connections.ts destroys the sockets that never made an HTTP request.
  await app.register(fastifyWebsocket, {
    // Pings are answered by src/graphql/subscriptions/socket.ts, under the bound of the socket's send buffer.
    options: { maxPayload: MAX_MESSAGE_BYTES, autoPong: false, handleProtocols: (protocols) => handleProtocols(protocols) },
    preClose: async function closeSockets(this: FastifyInstance) {
      await service.settled(SETUP_GRACE_MS);
      for (const socket of this.websocketServer.clients) socket.close(GOING_AWAY, 'Server is shutting down');
    },
  });

  const handleSocket = makeSocketHandler<Record<string, unknown> | undefined, ConnectionExtra>(
    {
      connectionInitWaitTimeout: config.subscriptionInitTimeoutMs,
      subscribe: service.subscribe,
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
          if (!service.callers.take(callerKey)) {
            socket.close(TOO_MANY_CONNECTIONS, 'Too many connections for this token');
            return false;
          }
          ctx.extra.callerKey = callerKey;
        }
        // A JWT's socket ends when the JWT does.
        if (expiresAt) ctx.extra.stopLapse = whenLapsed(expiresAt, () => socket.close(CloseCode.Forbidden, 'The token has expired'));
        ctx.extra.viewer = viewer;
        return true;
      },
      onDisconnect: (ctx) => {
        ctx.extra.stopLapse?.();
        if (ctx.extra.callerKey) service.callers.release(ctx.extra.callerKey);
      },
      onSubscribe: (ctx, _id, payload) => {
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
    // An 'error' on an open socket is the client's doing (a message over MAX_MESSAGE_BYTES, a bad frame):
    // `ws` closes the socket itself (1009, 1002). Logged as that, not as an internal error.
    socket.removeAllListeners('error');
    socket.on('error', (error) => request.log.info({ reason: error.message }, 'websocket closed: the client broke the protocol'));
    handleSocket(socket, { request }, request.log);
  };
  return { handler, connections: () => app.websocketServer.clients.size };
}
