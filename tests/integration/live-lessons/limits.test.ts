import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ids, tokens } from '../../kit/fixture.ts';
import { LESSON_EVENTS, startListeningGateway, type ListeningGateway } from '../../kit/live.ts';

// The WebSocket's own limits (docs/contract.md, Live lessons): sockets per token, subscriptions per
// socket, and subscriptions only.

let gateway: ListeningGateway;
const clients: Client[] = [];
beforeAll(async () => {
  gateway = await startListeningGateway({ SUBSCRIPTION_CONNECTIONS_PER_TOKEN: '2', SUBSCRIPTIONS_PER_CONNECTION: '2' });
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
});
