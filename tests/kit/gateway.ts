import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { importData } from '../../src/import/import-data.ts';
import { fixture } from './fixture.ts';

// The test kit: a gateway on a fresh database of its own, driven over HTTP (fastify.inject) as a client
// would. With DATABASE_URL set, each gateway gets a new database on that server, dropped at close;
// otherwise an embedded PGlite in memory.

export type RestAnswer = { status: number; body: any; headers: Record<string, unknown>; text: string };
export type GraphQLAnswer<T = any> = {
  status: number;
  data?: T;
  errors?: { message: string; path?: string[]; extensions?: Record<string, any> }[];
};

export type Gateway = {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** A database URL for this gateway's own database (PostgreSQL runs only). */
  databaseUrl: string | undefined;
  rest(
    method: InjectOptions['method'],
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string>; payload?: string | Buffer },
  ): Promise<RestAnswer>;
  graphql<T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<GraphQLAnswer<T>>;
  /**
   * Empties every table, then loads `data` (the shared fixture by default); returns once the app's token
   * cache heard of it (`writeTokensOrUsers`): no token verified before is remembered.
   */
  reset(data?: unknown): Promise<void>;
  /**
   * Runs `write`, which changes users or access tokens through this process's own Prisma and has committed
   * when it returns, then waits until the app's listener has heard every notification committed so far
   * (the triggers' word on that write among them): from then on a request sees the change. The app hears
   * its own process's writes only as any instance does, by notification (src/auth/token-cache.ts).
   */
  writeTokensOrUsers<T>(write: (prisma: Database['prisma']) => Promise<T>): Promise<T>;
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

/** Every table, children first (the order TRUNCATE and the snapshots use). */
export const tables = [
  'concept_results',
  'activity_sessions',
  'classroom_activities',
  'user_milestones',
  'user_objectives',
  'milestones',
  'objectives',
  'access_tokens',
  'classrooms_teachers',
  'concepts',
  'activities',
  'activity_classifications',
  'units',
  'classrooms',
  'users',
];

/** A new, empty database on the server `serverUrl` names (connected to as admin), and how to drop it. */
export async function freshServerDatabase(serverUrl: string, prefix = 'lgw_test'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function startGateway(
  env: Record<string, string> = {},
  appOptions: Omit<AppOptions, 'config' | 'database'> = {},
): Promise<Gateway> {
  const server = process.env.DATABASE_URL ? await freshServerDatabase(process.env.DATABASE_URL) : undefined;
  // Tests fire many requests from one address: the rate limit is out of the way unless a test sets it.
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DEMO_DATA: '0',
    DATA_DIR: 'memory://',
    RATE_LIMIT_MAX: '1000000',
    DATABASE_URL: server?.url ?? '',
    ...env,
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({ config, database, ...appOptions });
  await app.ready();
  const fences = new Map<string, () => void>();
  const stopHearingFences = await database.listen(FENCE_CHANNEL, (payload) => fences.get(payload)?.());
  /** Resolves once the app's listener has heard every notification committed before the call. */
  const heardAllSoFar = async () => {
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
      await database.prisma.$executeRaw`SELECT pg_notify(${FENCE_CHANNEL}, ${fence})`;
      await heard;
    } finally {
      clearTimeout(timer);
      fences.delete(fence);
    }
  };
  const writeTokensOrUsers: Gateway['writeTokensOrUsers'] = async (write) => {
    const result = await write(database.prisma);
    await heardAllSoFar();
    return result;
  };

  const gateway: Gateway = {
    app,
    database,
    config,
    databaseUrl: server?.url,
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
    async graphql(query, variables = {}, token) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      const response = await app.inject({ method: 'POST', url: '/graphql', headers, payload: JSON.stringify({ query, variables }) });
      return { status: response.statusCode, ...JSON.parse(response.body) };
    },
    async reset(data = fixture()) {
      await writeTokensOrUsers(async (prisma) => {
        await prisma.$executeRawUnsafe(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY CASCADE`);
        await inTransaction(prisma, (tx) => importData(tx, data));
      });
    },
    writeTokensOrUsers,
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
      await server?.drop();
    },
  };
  return gateway;
}

/**
 * A gateway for the tests of the calling file or describe block: started before them, emptied and loaded
 * with the fixture before each (unless `reset` is false), closed after them. It stands for the started
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
