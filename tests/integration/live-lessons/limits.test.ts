import { once } from 'node:events';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ids, tokens } from '../../kit/fixture.ts';
import { LESSON_EVENTS, startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';
import { scrape, total } from '../../kit/metrics.ts';
import { freePort } from '../../kit/ports.ts';

// The WebSocket's own limits (docs/contract.md, Live lessons): sockets per token, subscriptions per
// socket (reused ids included), and subscriptions only.

let gateway: ListeningGateway;
let metricsUrl: string;
const clients: Client[] = [];
beforeAll(async () => {
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  gateway = await startListeningGateway({
    SUBSCRIPTION_CONNECTIONS_PER_TOKEN: '2',
    SUBSCRIPTIONS_PER_CONNECTION: '2',
    METRICS_PORT: String(port),
  });
  await gateway.reset();
});
afterAll(() => gateway?.close());
afterEach(async () => {
  await Promise.all(clients.splice(0).map(async (client) => client.dispose()));
});

function connect(token: string, closed?: (code: number) => void): Promise<Client> {
  return new Promise((resolve) => {
    const client: Client = createClient({
      url: gateway.wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      // The refused socket is the point of one test: not an error to print.
      onNonLazyError: () => {},
      connectionParams: { authorization: `Bearer ${token}` },
      on: { connected: () => resolve(client), closed: (event: any) => closed?.(event.code) },
    });
    clients.push(client);
  });
}

/** The first message a subscription receives: its `next` payload, or its errors. */
function firstAnswer(client: Client, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  return new Promise((resolve) => client.subscribe({ query, variables }, { next: resolve, error: resolve, complete: () => {} }));
}

describe('WebSocket limits', () => {
  it('closes a token’s connection beyond SUBSCRIPTION_CONNECTIONS_PER_TOKEN with 4429', async () => {
    await connect(tokens.owner);
    await connect(tokens.owner);
    const code = await new Promise<number>((resolve) => void connect(tokens.owner, resolve));
    expect(code).toBe(4429);
    // Another token is not affected.
    await connect(tokens.coteacher);
  });

  it('refuses a subscription beyond SUBSCRIPTIONS_PER_CONNECTION, and queries and mutations', async () => {
    const client = await connect(tokens.owner);
    const variables = { id: String(ids.classroomActivity) };
    client.subscribe({ query: LESSON_EVENTS, variables }, { next: () => {}, error: () => {}, complete: () => {} });
    client.subscribe({ query: LESSON_EVENTS, variables }, { next: () => {}, error: () => {}, complete: () => {} });
    await gateway.waitForLog('subscription started', 2);
    const third = await firstAnswer(client, LESSON_EVENTS, variables);
    expect(third).toEqual([
      expect.objectContaining({ message: 'Too many subscriptions on this connection', extensions: { code: 'BAD_REQUEST' } }),
    ]);

    const other = await connect(tokens.coteacher);
    const query = await firstAnswer(other, '{ viewer { id } }');
    expect(query).toEqual([expect.objectContaining({ extensions: { code: 'BAD_REQUEST' } })]);
  });

  it('never lets a reused subscription id leave a subscription running that its client cannot stop, nor escape the cap', async () => {
    const socket = new WebSocket(gateway.wsUrl, 'graphql-transport-ws');
    const messages: { type: string; id?: string }[] = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(String(data))));
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${tokens.owner}` } }));
    await waitFor(() => messages.some((message) => message.type === 'connection_ack'), 'connection_ack');
    const variables = { id: String(ids.classroomActivity) };
    const subscribe = (id: string) => socket.send(JSON.stringify({ type: 'subscribe', id, payload: { query: LESSON_EVENTS, variables } }));
    const complete = (id: string) => socket.send(JSON.stringify({ type: 'complete', id }));
    const started = () => gateway.logs().filter((line) => line.msg === 'subscription started').length;

    // An id subscribed, completed and subscribed again before the first has been set up; completed once both have.
    for (let round = 0; round < 20; round += 1) {
      const before = started();
      subscribe(`x${round}`);
      complete(`x${round}`);
      subscribe(`x${round}`);
      await waitFor(() => started() >= before + 2, `round ${round}: both set up`);
      complete(`x${round}`);
    }
    // And one id subscribed and completed 500 times over, as fast as the socket carries it.
    for (let round = 0; round < 500; round += 1) {
      subscribe('y');
      complete('y');
    }
    subscribe('probe');
    await waitFor(() => gateway.logs().some((line) => line.msg === 'subscription started' && line.subscription === 'probe'), 'the probe');
    const running = async () => total(await scrape(metricsUrl), 'graphql_subscriptions');
    await waitFor(async () => (await running()) === 1, 'only the probe running', 15_000);

    // An event reaches the probe, and nothing that its client stopped (the next position of its lesson).
    await gateway.database.prisma.$executeRawUnsafe(
      `SELECT pg_notify('lesson_events', json_build_object('kind', 'LOCKED', 'classroomActivityId', id, 'locked', true,
         'position', lesson_event_position + 1, 'pinned', false, 'completed', false, 'followUpUrl', NULL,
         'at', '2026-01-01T00:00:00.000Z')::text)
       FROM classroom_activities WHERE id = $1::int`,
      ids.classroomActivity,
    );
    await waitFor(() => messages.some((message) => message.type === 'next' && message.id === 'probe'), 'the event');
    socket.send(JSON.stringify({ type: 'ping' }));
    await waitFor(() => messages.some((message) => message.type === 'pong'), 'pong');
    expect(messages.filter((message) => message.type === 'next' && message.id !== 'probe')).toEqual([]);

    // A running id reused: the protocol's 4409.
    const closed = once(socket, 'close');
    subscribe('probe');
    expect(((await closed) as [number])[0]).toBe(4409);
    await waitFor(async () => (await running()) === 0, 'no subscription left running', 15_000);
  });
});
