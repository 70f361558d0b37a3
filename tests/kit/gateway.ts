import { randomBytes } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type DocumentNode } from 'graphql';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.ts';
import { TOKEN_CHANGES_CHANNEL } from '../../src/auth/token-cache.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { importData } from '../../src/import/import-data.ts';
import { fixture } from './fixture.ts';
import { copyOfTemplate, tables, type OwnDatabase } from './template.ts';

// The test kit: a gateway on a database of its own, copied from the run's template (tests/kit/template.ts)
// with the shared fixture loaded, driven over HTTP (fastify.inject) as a client would. With DATABASE_URL
// set, each gateway gets a new database on that server, dropped at close; otherwise a PGlite data folder.

export { freshServerDatabase } from './template.ts';
export { tables };

export type RestAnswer = { status: number; body: any; headers: Record<string, unknown>; text: string };
/** An answer over HTTP: `T` is the data a typed document selects (`any` for a document sent as text). */
export type GraphQLAnswer<T = any> = {
  status: number;
  data?: T | null;
  errors?: { message: string; path?: string[]; extensions?: Record<string, any> }[];
};

/** The variables, then the token: the variables may be left out when the document requires none. */
export type VariablesAndToken<Variables> =
  Record<string, never> extends Variables ? [variables?: Variables, token?: string] : [variables: Variables, token?: string];

/** A document's text: a typed document (tests/kit/gql) printed, text as it is. */
export const documentText = (document: string | DocumentNode): string => (typeof document === 'string' ? document : print(document));

export type Gateway = {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** This gateway's own database on the server itself, for a test's own connections (PostgreSQL runs only). */
  databaseUrl: string | undefined;
  /** The settings naming this gateway's database, as it was started with: for another gateway, a command, a server process on it. */
  databaseEnv: Record<string, string>;
  rest(
    method: InjectOptions['method'],
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string>; payload?: string | Buffer },
  ): Promise<RestAnswer>;
  /**
   * POST /graphql with `variables` and, if given, `token` as a Bearer token. A typed document of tests/kit/gql
   * (docs/testing.md, Typed documents) is sent as its printed text, and its answer and variables are typed;
   * a document sent as text (built at run time, or deliberately invalid) answers `any`.
   */
  graphql<Result, Variables>(
    document: TypedDocumentNode<Result, Variables>,
    ...rest: VariablesAndToken<Variables>
  ): Promise<GraphQLAnswer<Result>>;
  graphql(query: string, variables?: Record<string, unknown>, token?: string): Promise<GraphQLAnswer>;
  /**
   * Empties every table, then loads `data` (the shared fixture by default); returns once the app's token
   * cache heard of it (`writeTokensOrUsers`): no token verified before is remembered. Without `data`, on a
   * copy of the template, the tables are rewritten only if anything wrote to them since the last reset.
   */
  reset(data?: unknown): Promise<void>;
  /**
   * Runs `write`, which changes users or access tokens through this process's own Prisma and has committed
   * when it returns, then waits until the app's listener has heard every notification committed so far
   * (the triggers' word on that write among them): from then on a request sees the change. The app hears
   * its own process's writes only as any instance does, by notification (src/auth/token-cache.ts).
   */
  writeTokensOrUsers<T>(write: (prisma: Database['prisma']) => Promise<T>): Promise<T>;
  /**
   * Resolves once the app's listener has heard every notification committed so far: another gateway's
   * reset or write on the same database, a command's, reach this one only through its own listener.
   */
  heardAllSoFar(): Promise<void>;
  /** Every row of every table, as text: equal snapshots mean nothing changed. */
  snapshot(): Promise<string>;
  /** SQL statements sent so far. */
  statements(): number;
  close(): Promise<void>;
};

/**
 * The kit's fence, notified after a write has committed: once it is heard, the app's token listener has
 * run for everything the write notified. PostgreSQL (PGlite too) delivers the notifications of different
 * transactions in commit order, and both listeners in src/db/client.ts hand them on in the order they
 * arrive (on a server, every channel on the one shared connection). A channel of its own, not the app's:
 * a payload the app's token listener does not know would empty its cache, and hide whether the write's
 * own notification evicted.
 */
const FENCE_CHANNEL = 'lgw_test_kit_fence';
const FENCE_TIMEOUT_MS = 10_000;

export type GatewayOptions = {
  /** Start on a copy of the empty template (migrated, no rows, no kit) rather than on the shared fixture. */
  empty?: boolean;
};

/**
 * A gateway on a copy of the run's template, holding the shared fixture (or no rows: `empty`). With
 * DATABASE_URL or DATA_DIR in `env`, it opens that database as it is instead (another gateway's, a
 * command's). Where the kit's schema is missing (those, and `empty`), `reset()` empties the tables and
 * loads the fixture through the import.
 */
export async function startGateway(
  env: Record<string, string> = {},
  appOptions: Omit<AppOptions, 'config' | 'database'> = {},
  options: GatewayOptions = {},
): Promise<Gateway> {
  const template = inject('lgwTemplate');
  if (!template && !env.DATABASE_URL && !env.DATA_DIR)
    throw new Error('startGateway: no template database (made by tests/kit/global-setup.ts for the projects of vitest.config.ts)');
  const ownDatabase = env.DATABASE_URL || env.DATA_DIR ? undefined : await copyOfTemplate(template, options.empty ? 'empty' : 'fixture');
  try {
    return await startOn(ownDatabase, env, appOptions);
  } catch (error) {
    await ownDatabase?.remove();
    throw error;
  }
}

async function startOn(
  ownDatabase: OwnDatabase | undefined,
  env: Record<string, string>,
  appOptions: Omit<AppOptions, 'config' | 'database'>,
): Promise<Gateway> {
  // Tests fire many requests from one address: the rate limit is out of the way unless a test sets it.
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DEMO_DATA: '0',
    RATE_LIMIT_MAX: '1000000',
    // Closing a gateway closes its sockets at once, unless a test spreads them (tests/system/live-lessons/deploy.test.ts).
    SHUTDOWN_SPREAD: '0',
    ...ownDatabase?.env,
    ...env,
  });
  const database = await openDatabase(config);
  // A test may close the database itself (to see the app without it): closing again is then a no-op.
  const closeDatabase = database.close;
  let closing: Promise<void> | undefined;
  database.close = () => (closing ??= closeDatabase());
  const app = await buildApp({ config, database, ...appOptions });
  await app.ready();
  const fences = new Map<string, () => void>();
  const stopHearingFences = await database.listen(FENCE_CHANNEL, (payload) => fences.get(payload)?.());
  /**
   * Runs `notify`, which commits a notification of `fence` on the kit's channel, and resolves once the
   * app's listener has heard every notification committed before it.
   */
  const fenced = async <T>(notify: (fence: string) => Promise<T>): Promise<T> => {
    const fence = randomBytes(6).toString('hex');
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve, reject) => {
      fences.set(fence, resolve);
      timer = setTimeout(
        () => reject(new Error(`the listener did not hear the kit's fence within ${FENCE_TIMEOUT_MS} ms (is it listening?)`)),
        FENCE_TIMEOUT_MS,
      );
    });
    try {
      const result = await notify(fence);
      await heard;
      return result;
    } finally {
      clearTimeout(timer);
      fences.delete(fence);
    }
  };
  const heardAllSoFar = async () => {
    await fenced((fence) => database.prisma.$executeRaw`SELECT pg_notify(${FENCE_CHANNEL}, ${fence})`);
  };
  const writeTokensOrUsers: Gateway['writeTokensOrUsers'] = async (write) => {
    const result = await write(database.prisma);
    await heardAllSoFar();
    return result;
  };
  /** Through the kit's own function when the database has it (tests/kit/template.ts): `known` writes so far. */
  const [probe] = await database.read<{ kit: boolean }>(`SELECT to_regnamespace('lgw_kit') IS NOT NULL AS kit`, []);
  const kit = probe?.kit === true;
  let known = -1;
  const kitReset = async () => {
    const [row] = await fenced((fence) =>
      database.read<{ writes: string }>('SELECT lgw_kit.reset($1, $2, $3, $4)::text AS writes', [
        String(known),
        TOKEN_CHANGES_CHANNEL,
        FENCE_CHANNEL,
        fence,
      ]),
    );
    known = Number(row!.writes);
  };
  // A copy of the template is loaded afresh (`known` is -1), so that the fixture's times of creation are
  // now, as after any reset; another gateway's database is left as it is.
  if (kit && ownDatabase) await kitReset();

  const gateway: Gateway = {
    app,
    database,
    config,
    databaseUrl: config.databaseDirectUrl ?? config.databaseUrl,
    databaseEnv: {
      DATABASE_URL: config.databaseUrl ?? '',
      DATA_DIR: config.dataDir,
      ...(config.databaseDirectUrl ? { DATABASE_DIRECT_URL: config.databaseDirectUrl } : {}),
      DATABASE_PREPARED_STATEMENTS: config.databasePreparedStatements ? '1' : '0',
    },
    async rest(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let payload = options.payload;
      if (options.body !== undefined) {
        payload = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await app.inject({ method, url: path, headers, ...(payload === undefined ? {} : { payload }) });
      let body: unknown;
      try {
        body = response.body === '' ? undefined : JSON.parse(response.body);
      } catch {
        body = undefined;
      }
      return { status: response.statusCode, body, headers: response.headers, text: response.body };
    },
    async graphql(document: string | DocumentNode, variables: unknown = {}, token?: string) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      const payload = JSON.stringify({ query: documentText(document), variables });
      const response = await app.inject({ method: 'POST', url: '/graphql', headers, payload });
      return { status: response.statusCode, ...JSON.parse(response.body) } as GraphQLAnswer;
    },
    async reset(data?: unknown) {
      if (data === undefined && kit) return kitReset();
      await writeTokensOrUsers(async (prisma) => {
        await prisma.$executeRawUnsafe(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY CASCADE`);
        await inTransaction(prisma, (tx) => importData(tx, data ?? fixture()));
      });
    },
    writeTokensOrUsers,
    heardAllSoFar,
    async snapshot() {
      const parts: string[] = [];
      for (const table of tables) {
        const rows = await database.prisma.$queryRawUnsafe<unknown[]>(`SELECT to_jsonb(t)::text AS row FROM "${table}" t ORDER BY 1`);
        parts.push(`${table}: ${JSON.stringify(rows)}`);
      }
      return parts.join('\n');
    },
    statements: () => database.statementCount(),
    async close() {
      await stopHearingFences();
      await app.close();
      await database.close();
      await ownDatabase?.remove();
    },
  };
  return gateway;
}

/**
 * A gateway for the tests of the calling file or describe block: started before them, put back to the
 * shared fixture before each (`reset()`, unless `reset` is false), closed after them. It stands for the started
 * gateway, so tests use it as they would `startGateway`'s (it throws if used before it is started).
 */
export function gatewayForTests(env: Record<string, string> = {}, options: { reset?: boolean } = {}): Gateway {
  let started: Gateway | undefined;
  beforeAll(async () => {
    started = await startGateway(env);
  });
  afterAll(() => started?.close());
  if (options.reset ?? true) beforeEach(() => started!.reset());
  return new Proxy({} as Gateway, {
    get(_target, key) {
      if (!started) throw new Error('gatewayForTests: the gateway is used before it started (outside a test or hook)');
      const value = started[key as keyof Gateway];
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}
