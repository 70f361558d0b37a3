import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids, tokens } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { tcpProxy, type TcpProxy } from '../../kit/tcp-proxy.ts';

// The database stalls (PostgreSQL only: a TCP proxy in front of the server goes silent, its connections
// open and no byte passing): every answer that needs it is 503 `unavailable` with Retry-After within
// DATABASE_STATEMENT_TIMEOUT or so, never a 500 and never a hang; once the network speaks again, the
// gateway serves on fresh connections (a stalled one is never reused).

const serverUrl = process.env.DATABASE_URL;
const TIMEOUT = '1s';
/** Far more than any answer should take with a 1 s bound, far less than the stall lasts: a hang shows as a failure. */
const HANG_MS = 20_000;

describe.skipIf(!serverUrl)('database stall', () => {
  let setup: Gateway;
  let proxy: TcpProxy;
  let gateway: Gateway;

  beforeAll(async () => {
    setup = await startGateway();
    proxy = tcpProxy(new URL(setup.databaseUrl!));
    await proxy.start();
    gateway = await startGateway({
      DATABASE_URL: proxy.urlThrough(setup.config.databaseUrl!),
      DATABASE_PREPARED_STATEMENTS: setup.databaseEnv.DATABASE_PREPARED_STATEMENTS!,
      // Behind the pooler pass's pooler, the listening connection goes to the server itself, not stalled.
      ...(setup.config.databaseDirectUrl ? { DATABASE_DIRECT_URL: setup.config.databaseDirectUrl } : {}),
      DATABASE_STATEMENT_TIMEOUT: TIMEOUT,
    });
  });
  afterAll(async () => {
    proxy?.speak();
    await gateway?.close();
    await proxy?.stop();
    await setup?.close();
  });

  const within = async <T>(what: string, answer: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${HANG_MS} ms`)), HANG_MS);
    });
    try {
      return await Promise.race([answer, hang]);
    } finally {
      clearTimeout(timer);
    }
  };
  const inject = (what: string, options: InjectOptions) => within(what, gateway.app.inject(options));
  const graphqlRequest = (query: string, variables: Record<string, unknown>, token?: string) => ({
    method: 'POST' as const,
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: JSON.stringify({ query, variables }),
  });
  const requests = {
    readyz: { method: 'GET' as const, url: '/readyz' },
    publishedEdition: {
      method: 'POST' as const,
      url: '/api/v1/published_edition',
      headers: { authorization: `Bearer ${tokens.owner}`, 'content-type': 'application/json' },
      payload: '{}',
    },
    unpin: graphqlRequest('mutation ($id: ID!) { unpinAndLock(id: $id) { id } }', { id: String(ids.classroomActivity) }, tokens.owner),
    launch: graphqlRequest('mutation ($id: ID!) { launchLesson(id: $id) { id } }', { id: String(ids.classroomActivity) }, tokens.coteacher),
    publicRead: graphqlRequest('{ activities(first: 1) { totalCount } }', {}),
    tokenCheck: graphqlRequest('{ viewer { id } }', {}, tokens.staff),
    restRead: { method: 'GET' as const, url: '/api/v1/activities/uids_and_flags' },
  };

  it('answers 503 unavailable within a bounded time while the network is silent, then serves on fresh connections', async () => {
    // The pool holds open connections when the network goes silent.
    await Promise.all([1, 2, 3].map(() => inject('a read', requests.restRead)));
    expect((await inject('readyz', requests.readyz)).statusCode).toBe(200);

    proxy.silence();
    const answers = await Promise.all(
      Object.entries(requests).map(async ([name, request]) => [name, await inject(name, request)] as const),
    );
    for (const [name, answer] of answers) {
      expect({ name, status: answer.statusCode }).toEqual({ name, status: 503 });
      if (name !== 'readyz') expect({ name, retryAfter: answer.headers['retry-after'] }).toEqual({ name, retryAfter: expect.any(String) });
      expect(answer.body).not.toMatch(/prisma|P20|timeout|stack|at /i);
    }
    const graphql = answers.find(([name]) => name === 'unpin')![1].json();
    expect(graphql.errors[0].extensions.code).toBe('UNAVAILABLE');

    proxy.speak();
    let ready = 0;
    for (let i = 0; i < 100 && ready !== 200; i += 1) {
      ready = (await inject('readyz', requests.readyz)).statusCode;
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ready).toBe(200);
    for (const name of ['publishedEdition', 'launch', 'unpin', 'publicRead', 'tokenCheck', 'restRead'] as const) {
      const answer = await inject(name, requests[name]);
      expect({ name, status: answer.statusCode, body: answer.statusCode === 200 ? '' : answer.body }).toEqual({
        name,
        status: 200,
        body: '',
      });
    }
  }, 120_000);
});
