import type { FastifyBaseLogger } from 'fastify';
import {
  Kind,
  OperationTypeNode,
  getArgumentValues,
  getOperationAST,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type GraphQLError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import type { Viewer } from '../../auth/viewer.ts';
import { callAt } from '../../core/call-at.ts';
import { badRequest } from '../../core/errors.ts';
import type { Database } from '../../db/client.ts';
import type { ModuleSettings } from '../../modules/context.ts';
import type { Tracing } from '../../telemetry/tracing.ts';
import { formatErrorFor } from '../format-error.ts';
import { createContext } from '../request-context.ts';
import { referenceIn, type OnOutside, type TrustedDocuments } from '../trusted-documents.ts';
import { subscriptionDocuments } from './documents.ts';
import { withEnd } from './iterators.ts';
import { ConnectionsPerCaller } from './per-caller.ts';
import { subscribe } from './response-stream.ts';

// What subscriptions are, whichever transport carries them (WebSocket: websocket.ts; Server-Sent Events:
// sse.ts): the same documents under the same limits and trusted documents, the same context, the same
// caps per caller across both transports, and the log lines; shutdown waits for those being set up.

export type SubscriptionServiceOptions = {
  schema: GraphQLSchema;
  /** The same validation rules /graphql applies (graphql-armor's, src/graphql/limits.ts). */
  validationRules: readonly ValidationRule[];
  database: Pick<Database, 'prisma' | 'read'>;
  settings: ModuleSettings;
  /** SUBSCRIPTION_CONNECTIONS_PER_TOKEN: connections (sockets and streams together) one caller may hold. */
  connectionsPerCaller: number;
  log: FastifyBaseLogger;
  trusted?: TrustedDocuments | undefined;
  onOutsideTrusted?: OnOutside | undefined;
  /** When tracing is on: a span for each subscription's start (src/telemetry/). */
  tracing?: Tracing | undefined;
};

/** A subscribe request as both protocols carry it. */
export type SubscribePayload = {
  query?: unknown;
  operationName?: string | null | undefined;
  variables?: Record<string, unknown> | null | undefined;
  extensions?: Record<string, unknown> | null | undefined;
  documentId?: unknown;
};

/** Open connections (sockets and streams) and running subscriptions, read by the metrics (src/metrics/metrics.ts). */
export type LiveCounts = { connections(): number; subscriptions(): number };

/** How long shutdown waits for subscriptions being set up before ending their connections. */
export const SETUP_GRACE_MS = 5_000;

/** Calls `lapse` once `at` has passed (a JWT's `exp`: its socket or stream ends then); the function returned cancels it. */
export function whenLapsed(at: Date, lapse: () => void): () => void {
  const timer = callAt(at, lapse);
  return () => clearTimeout(timer);
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;

export function createSubscriptionService({
  schema,
  validationRules,
  database,
  settings,
  connectionsPerCaller,
  log,
  trusted,
  onOutsideTrusted,
  tracing,
}: SubscriptionServiceOptions) {
  const formatError = formatErrorFor((error) => log.error({ err: error }, 'unexpected error in a subscription'));
  const prepare = subscriptionPreparer({ schema, validationRules, database, settings, trusted, onOutsideTrusted });
  let settingUp = 0;
  let running = 0;
  /** With tracing on, each subscription's trace and span ids, by its context (one per subscription). */
  const traceOfSubscription = new WeakMap<object, Record<string, string>>();
  const subscribeTraced = tracedSubscribe(tracing, traceOfSubscription);

  return {
    /** Connections (sockets and streams) per caller: both transports count against one cap. */
    callers: new ConnectionsPerCaller(connectionsPerCaller),

    format: (errors: readonly GraphQLError[]) => errors.map((error) => formatError(error.toJSON(), error)),

    /** The execution of a subscribe request for `viewer` under the trusted documents, or the errors that refuse it before it runs. */
    prepare,

    /** graphql-js's subscribe, counted while it runs its access checks (shutdown waits for them), traced when on. */
    subscribe: async (args: ExecutionArgs) => {
      settingUp += 1;
      try {
        return await subscribeTraced(args);
      } finally {
        settingUp -= 1;
      }
    },

    /** The subscription's events, logged as it starts and ends; or, refused, its log line. */
    started(id: string, args: ExecutionArgs, viewer: Viewer | undefined, result: AsyncIterableIterator<ExecutionResult> | ExecutionResult) {
      const userId = viewer?.kind === 'user' ? viewer.user.id : null;
      const trace = traceOfSubscription.get(args.contextValue as object);
      if (!(Symbol.asyncIterator in result)) {
        const code = result.errors?.[0]?.extensions?.code;
        log.info({ subscription: id, operation: args.operationName ?? undefined, userId, code, ...trace }, 'subscription refused');
        return result;
      }
      const classroomActivityId = lessonEventsArgument(args, 'classroomActivityId');
      log.info(
        { subscription: id, operation: args.operationName ?? undefined, userId, classroomActivityId, ...trace },
        'subscription started',
      );
      running += 1;
      return withEnd(result, () => {
        running -= 1;
        log.info({ subscription: id, userId, ...trace }, 'subscription ended');
      });
    },

    /** Resolves once no subscription is being set up, or after `graceMs` (shutdown). */
    async settled(graceMs: number): Promise<void> {
      const until = Date.now() + graceMs;
      while (settingUp > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    },

    /** The metrics' counts: the connections of every transport, and the subscriptions running on them. */
    counts: (...transports: (() => number)[]): LiveCounts => ({
      connections: () => transports.reduce((sum, connections) => sum + connections(), 0),
      subscriptions: () => running,
    }),
  };
}

type PreparerOptions = Pick<
  SubscriptionServiceOptions,
  'schema' | 'validationRules' | 'database' | 'settings' | 'trusted' | 'onOutsideTrusted'
>;

/** The service's `prepare`: a subscribe request's execution under the trusted documents and the limits, or the errors that refuse it. */
function subscriptionPreparer({ schema, validationRules, database, settings, trusted, onOutsideTrusted }: PreparerOptions) {
  const checkDocument = subscriptionDocuments(
    schema,
    validationRules,
    new Map(trusted?.documents.map((listed) => [listed.text, listed.document])),
  );

  /** The execution of a subscribe request whose text is trusted already, or the errors that refuse it before it runs. */
  const prepareText = (query: unknown, payload: SubscribePayload, viewer: Viewer, transport: string): ExecutionArgs | GraphQLError[] => {
    if (typeof query !== 'string') return [badRequest("A subscription needs a document: `query`, or a trusted document's id")];
    const checked = checkDocument(query);
    if (!('document' in checked)) return checked.errors;
    const { document } = checked;
    if (getOperationAST(document, payload.operationName)?.operation !== OperationTypeNode.SUBSCRIPTION)
      return [badRequest(`Only subscriptions are served over ${transport}; send queries and mutations to /graphql`)];
    return {
      schema,
      document,
      operationName: payload.operationName ?? null,
      variableValues: payload.variables ?? null,
      contextValue: createContext(database, settings, viewer),
    };
  };

  return (payload: SubscribePayload, viewer: Viewer, transport: string): ExecutionArgs | GraphQLError[] => {
    if (!trusted) return prepareText(payload.query, payload, viewer, transport);
    const onOutside = onOutsideTrusted ?? (() => {});
    const admitted = trusted.admit(referenceIn(payload), onOutside);
    if ('refused' in admitted) return [admitted.refused];
    const prepared = prepareText(admitted.text ?? payload.query, payload, viewer, transport);
    // Outside the list (log mode): counted as run only when it is a subscription that runs.
    if (admitted.outside && !Array.isArray(prepared)) onOutside('ran', admitted.outside);
    return prepared;
  };
}

/** graphql-js's subscribe, in a span when tracing is on; each subscription's trace ids kept by its context for its log lines. */
function tracedSubscribe(tracing: Tracing | undefined, traceOfSubscription: WeakMap<object, Record<string, string>>) {
  return (args: ExecutionArgs) =>
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
