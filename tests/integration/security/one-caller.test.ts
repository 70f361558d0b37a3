import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { startSessionWebhook, type SessionWebhook } from '../../kit/identity.ts';
import { LESSON_EVENTS, rawStream, startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';
import { basicAuth, classroomActivityPath } from '../../kit/rest.ts';

// One caller, one budget (docs/contract.md, What a caller is): the rate limit and the connection caps
// count the token or user a credential names, however its header is spelled, and anonymous sockets by IP.

/** The same own token, spelled every way the authenticator accepts it. */
const spellings = (token: string) => [
  `Bearer ${token}`,
  `bearer ${token}`,
  `BEARER ${token}`,
  `Bearer  ${token}`,
  ` Bearer ${token} `,
  basicAuth(token).authorization!,
];

const COOKIE = '_platform_session';

/** A gateway, asked through fastify.inject from any address: 3 requests per caller, with the platform's session cookies. */
describe('one budget per caller', () => {
  let webhook: SessionWebhook;
  let gateway: Gateway;
  beforeAll(async () => {
    webhook = await startSessionWebhook(COOKIE);
    for (let i = 0; i < 2; i++) webhook.answers.set(`teacher-${i}`, { status: 200, body: { userId: ids.owner } });
    gateway = await startGateway({
      AUTH_SESSION_WEBHOOK_URL: webhook.url,
      AUTH_SESSION_COOKIE: COOKIE,
      RATE_LIMIT_MAX: '3',
      RATE_LIMIT_WINDOW: '10 minutes',
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await webhook?.close();
  });

  describe('the rate limit counts the caller, not its header', () => {
    const studentNames = (authorization: string, ip = '10.4.0.1') =>
      gateway.app.inject({ method: 'GET', url: classroomActivityPath('student_names'), remoteAddress: ip, headers: { authorization } });

    it('one token spelled six ways shares one budget, whatever the IP', async () => {
      const [first, ...others] = spellings(tokens.owner);
      for (let i = 0; i < 3; i++) expect((await studentNames(first!, `10.4.0.${i + 1}`)).statusCode).toBe(200);
      for (const authorization of [first!, ...others]) expect((await studentNames(authorization, '10.4.1.1')).statusCode).toBe(429);
      // Another token has its own.
      expect((await studentNames(`Bearer ${tokens.coteacher}`, '10.4.1.1')).statusCode).toBe(200);
    });

    it('a public answer carries nothing about its caller: no x-ratelimit-* headers, on REST, GraphQL and a 304', async () => {
      const ask = (url: string, headers: Record<string, string> = {}) =>
        gateway.app.inject({ method: 'GET', url, remoteAddress: '10.4.3.1', headers });
      const rest = await ask(`/api/v1/activities/${uids.lesson}`);
      const query = `query PublicActivity($id: ID!) { activity(id: $id) { uid name } }`;
      const graphql = await ask(`/graphql?${new URLSearchParams({ query, variables: JSON.stringify({ id: String(ids.lesson) }) })}`);
      const notModified = await ask(`/api/v1/activities/${uids.lesson}`, { 'if-none-match': String(rest.headers.etag) });
      expect([rest.statusCode, graphql.statusCode, notModified.statusCode]).toEqual([200, 200, 304]);
      for (const answer of [rest, graphql, notModified]) {
        expect(String(answer.headers['cache-control'])).toMatch(/^public/);
        expect(Object.keys(answer.headers).filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
      }
      // A private answer still tells its caller where it stands; and the public ones were counted.
      const limited = await ask(`/api/v1/activities/${uids.lesson}`);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      const own = await studentNames(`Bearer ${tokens.otherTeacher}`, '10.4.3.2');
      expect(own.headers['x-ratelimit-remaining']).toBe('2');
    });

    it('a token nobody holds names no caller: made-up tokens share their IP’s budget with anonymous requests', async () => {
      for (let i = 0; i < 3; i++) expect((await studentNames(`Bearer made-up-${i}`, '10.4.2.1')).statusCode).toBe(401);
      expect((await studentNames('Bearer made-up-3', '10.4.2.1')).statusCode).toBe(429);
      const anonymous = await gateway.app.inject({ method: 'GET', url: '/api/v1/activities/uids_and_flags', remoteAddress: '10.4.2.1' });
      expect(anonymous.statusCode).toBe(429);
    });
  });

  describe('the platform is asked no faster than the rate limit allows', () => {
    const withSession = (session: string, ip: string) =>
      gateway.app.inject({
        method: 'GET',
        url: '/api/v1/activities/uids_and_flags',
        remoteAddress: ip,
        headers: { cookie: `${COOKIE}=${session}` },
      });

    it('30 requests with fresh unknown session cookies: 3 served, 27 refused, the webhook asked 3 times', async () => {
      const before = webhook.calls.length;
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await withSession(`unknown-${i}`, '10.5.0.1')).statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(3);
      expect(statuses.filter((status) => status === 429)).toHaveLength(27);
      expect(webhook.calls.length - before).toBe(3);
    });

    it('"no session" is remembered: one unknown cookie sent again is not asked about again', async () => {
      const before = webhook.calls.length;
      expect((await withSession('unknown-again', '10.5.1.1')).statusCode).toBe(200);
      expect((await withSession('unknown-again', '10.5.1.2')).statusCode).toBe(200);
      expect(webhook.calls.length - before).toBe(1);
    });

    it('each call for a cookie not yet known counts against the IP, even when it names a user', async () => {
      for (let i = 0; i < 2; i++) expect((await withSession(`teacher-${i}`, '10.5.2.1')).statusCode).toBe(200);
      // 2 calls counted against 10.5.2.1: one anonymous request is left, then none.
      const anonymous = () => gateway.app.inject({ method: 'GET', url: '/api/v1/activities/uids_and_flags', remoteAddress: '10.5.2.1' });
      expect([(await anonymous()).statusCode, (await anonymous()).statusCode]).toEqual([200, 429]);
      // The user's own budget is theirs (2 used): a known cookie is not counted against the IP.
      expect((await withSession('teacher-0', '10.5.2.1')).statusCode).toBe(200);
    });
  });
});

/** A graphql-transport-ws socket that sends connection_init with `authorization`: 'ack', or the code it was closed with. */
async function openSocket(url: string, authorization?: string, sockets?: WebSocket[]): Promise<'ack' | number> {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  sockets?.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: authorization ? { authorization } : {} })));
    socket.on('message', (data: Buffer) => {
      if (JSON.parse(data.toString()).type === 'connection_ack') resolve('ack');
    });
    socket.once('close', (code) => resolve(code));
  });
}

describe('the connection caps count the caller, not its header', () => {
  let gateway: ListeningGateway;
  const sockets: WebSocket[] = [];
  beforeAll(async () => {
    gateway = await startListeningGateway({ SUBSCRIPTION_CONNECTIONS_PER_TOKEN: '2' });
  });
  afterAll(() => gateway?.close());
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.terminate();
  });

  it('a third socket of one token is closed 4429 however its header is spelled', async () => {
    const [first, second, ...others] = spellings(tokens.owner);
    expect(await openSocket(gateway.wsUrl, first, sockets)).toBe('ack');
    expect(await openSocket(gateway.wsUrl, second, sockets)).toBe('ack');
    for (const authorization of others) expect(await openSocket(gateway.wsUrl, authorization, sockets)).toBe(4429);
    // An event stream counts with them, however spelled.
    const stream = await rawStream(gateway.streamUrl, {
      headers: { authorization: others.at(-1)! },
      variables: { id: String(ids.classroomActivity) },
    });
    stream.close();
    expect(stream.status).toBe(429);
  });

  it('anonymous sockets are counted by IP: a third from one address is closed 4429, a signed-in one is not affected', async () => {
    expect(await openSocket(gateway.wsUrl, undefined, sockets)).toBe('ack');
    expect(await openSocket(gateway.wsUrl, undefined, sockets)).toBe('ack');
    expect(await openSocket(gateway.wsUrl, undefined, sockets)).toBe(4429);
    // A credential nobody holds is refused (4403), and does not make a socket anonymous.
    expect(await openSocket(gateway.wsUrl, 'Bearer made-up', sockets)).toBe(4403);
    expect(await openSocket(gateway.wsUrl, `Bearer ${tokens.coteacher}`, sockets)).toBe('ack');
  });
});

describe('subscribe messages count against the caller’s rate limit', () => {
  let gateway: ListeningGateway;
  const sockets: WebSocket[] = [];
  beforeAll(async () => {
    gateway = await startListeningGateway({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW: '10 minutes', SUBSCRIPTIONS_PER_CONNECTION: '20' });
  });
  afterAll(() => gateway?.close());
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.terminate();
  });

  it('past the budget a subscribe is an error for its id (RATE_LIMITED), and the token’s requests are 429 too', async () => {
    const socket = new WebSocket(gateway.wsUrl, 'graphql-transport-ws');
    sockets.push(socket);
    const messages: any[] = [];
    socket.on('message', (data: Buffer) => void messages.push(JSON.parse(data.toString())));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${tokens.owner}` } }));
    await waitFor(() => messages.some((message) => message.type === 'connection_ack'), 'connection_ack');
    // The upgrade counted against the IP (its token came in connection_init): 5 subscribes, then each is refused.
    const payload = { query: LESSON_EVENTS, variables: { id: String(ids.classroomActivity) } };
    for (let i = 1; i <= 10; i++) socket.send(JSON.stringify({ id: String(i), type: 'subscribe', payload }));
    await waitFor(() => messages.filter((message) => message.type === 'error').length >= 5, 'five refused subscribes');
    const errors = messages.filter((message) => message.type === 'error');
    expect(errors.map((message) => message.id)).toEqual(['6', '7', '8', '9', '10']);
    expect(errors[0].payload).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'RATE_LIMITED' }) })]);
    // A refused subscribe costs the database nothing.
    const statements = gateway.statements();
    for (let i = 11; i <= 30; i++) socket.send(JSON.stringify({ id: String(i), type: 'subscribe', payload }));
    await waitFor(() => messages.filter((message) => message.type === 'error').length >= 25, 'twenty more refused');
    expect(gateway.statements()).toBe(statements);
    const rest = await gateway.rest('GET', classroomActivityPath('student_names'), { token: tokens.owner });
    expect(rest.status).toBe(429);
    // Another caller is not affected.
    expect((await gateway.rest('GET', classroomActivityPath('student_names'), { token: tokens.coteacher })).status).toBe(200);
  });
});
