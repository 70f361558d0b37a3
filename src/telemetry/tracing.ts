import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { FastifyRequest } from 'fastify';

// OpenTelemetry traces (README, Tracing). This file only describes what the app calls while tracing is on;
// src/telemetry/sdk.ts builds it, and only when an OTLP endpoint is set. With tracing off the app is given
// none of it: no hook, plugin or wrapper is installed and no OpenTelemetry module is loaded.

/** The GraphQL operation a span stands for, when the caller knows it before running it (subscriptions). */
export type TracedOperation = { name: string | undefined; type: 'query' | 'mutation' | 'subscription' };

export type Tracing = {
  /** pino's mixin: the trace and span ids of the span a log line is written in (none outside a request). */
  logFields: () => Record<string, string>;
  /** Called first for every request: its HTTP server span gets the route template (`http.route`) and its name. */
  nameHttpSpan: (request: FastifyRequest) => void;
  /**
   * Runs one GraphQL operation in a span of its own, the parent of its SQL statements' spans. Apollo's
   * operations are named by `apolloPlugin` once parsed; the others say what they are.
   */
  graphqlOperation: <T>(run: () => Promise<T>, operation?: TracedOperation) => Promise<T>;
  /** Names the span `graphqlOperation` opened (operation name and type) and marks it failed when the answer has errors. */
  apolloPlugin: ApolloServerPlugin<BaseContext>;
  /** Runs work that no request carries (a WebSocket's connection_init) in a span of its own. */
  span: <T>(name: string, run: () => Promise<T>) => Promise<T>;
  /** Runs one SQL statement sent straight to the driver in a span (Prisma traces its own statements). */
  sqlStatement: <T>(text: string, run: () => Promise<T>, server?: { address: string; port: number }) => Promise<T>;
  /** The primary's address, which Prisma's statement spans carry unless they ran on a replica (src/db/replicas.ts). */
  databaseServer: (server: { address: string; port: number }) => void;
  /** Sends the spans still buffered, then stops: the last step of shutdown. */
  shutdown: () => Promise<void>;
};
