import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { ids, tokens } from '../../kit/fixture.ts';
import { graphql } from '../../kit/gql/index.ts';
import { documentText } from '../../kit/gateway.ts';
import { startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';
import { tcpProxy } from '../../kit/tcp-proxy.ts';

// Live lessons that lose nothing across instances (docs/contract.md, Live lessons): a graphql-ws client
// following a lesson on one instance, which shuts down while changes are committed through another, retries,
// lands on the other, resubscribes after its last id and gets every event exactly once, in order.

const FOLLOW_AFTER = graphql(`
  subscription FollowAfter($id: ID!, $after: ID) { lessonEvents(classroomActivityId: $id, after: $after) { id kind } }`);
const CURSOR = graphql(`query CursorOfLesson($id: ID!) { classroomActivity(id: $id) { lessonEventCursor } }`);
const LOCK = graphql(`mutation LockLesson($id: ID!) { unpinAndLock(id: $id) { id } }`);
const LAUNCH = graphql(`mutation LaunchTheLesson($id: ID!) { launchLesson(id: $id) { id } }`);

const gateways: ListeningGateway[] = [];
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map(async (client) => client.dispose()));
  for (const gateway of gateways.reverse()) await gateway.close();
});

describe.skipIf(!process.env.DATABASE_URL)('on a PostgreSQL server, two instances', () => {
  it('a client whose instance shuts down resumes on the other after its last id: every event once, in order', async () => {
    // `staying` owns the database (it is removed with it); `leaving` serves the same database.
    const staying = await startListeningGateway();
    gateways.push(staying);
    const leaving = await startListeningGateway(staying.databaseEnv);
    await staying.reset();
    const id = String(ids.classroomActivity);
    const cursor = (await staying.graphql(CURSOR, { id }, tokens.owner)).data!.classroomActivity!.lessonEventCursor;

    // The balancer: a proxy in front of the leaving instance, pointed at the other when it goes.
    const proxy = tcpProxy(new URL(leaving.wsUrl));
    await proxy.start();
    const client = createClient({
      url: proxy.urlThrough(leaving.wsUrl),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${tokens.owner}` },
      retryAttempts: 50,
      retryWait: () => new Promise((resolve) => setTimeout(resolve, 100)),
      shouldRetry: () => true,
    });
    clients.push(client);
    const ids_: string[] = [];
    const payload = { query: documentText(FOLLOW_AFTER), variables: { id, after: cursor } };
    client.subscribe(payload, {
      next: ({ data }) => {
        const event = (data as { lessonEvents?: { id: string } } | null | undefined)?.lessonEvents;
        if (!event) return;
        ids_.push(event.id);
        payload.variables.after = event.id;
      },
      error: () => {},
      complete: () => {},
    });
    await leaving.waitForLog('subscription started');

    const change = async (index: number) => {
      const answer =
        index % 2 === 0 ? await staying.graphql(LOCK, { id }, tokens.owner) : await staying.graphql(LAUNCH, { id }, tokens.owner);
      expect(answer.errors).toBeUndefined();
    };
    for (let index = 0; index < 4; index += 1) await change(index);
    await waitFor(() => ids_.length >= 4, 'the first events through the leaving instance');
    // It goes (its sockets closed with 1001) while changes go on through the other.
    proxy.retarget(new URL(staying.wsUrl));
    const closing = leaving.close();
    for (let index = 4; index < 8; index += 1) await change(index);
    await closing;
    for (let index = 8; index < 10; index += 1) await change(index);
    await waitFor(() => ids_.length >= 10, 'every event, through the staying instance');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ids_.map((each) => Number(each.split('-')[1]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await proxy.stop();
  });
});
