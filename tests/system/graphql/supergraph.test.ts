import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { createGatewayRuntime, getGraphQLWSOptions } from '@graphql-hive/gateway-runtime';
import { composeServices } from '@theguild/federation-composition';
import { parse } from 'graphql';
import { createClient } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import { startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';

// The lessons gateway joined to a supergraph (docs/federation.md): composed with the platform's own small
// subgraph (its users' email and school) by @theguild/federation-composition, served by Hive Gateway's
// runtime from npm, and used as a client would: a query across both, a mutation, a subscription.

const PLATFORM_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Query { platformStatus: String! }
  type User @key(fields: "id") { id: ID! email: String! school: String! }
`;

let lessons: ListeningGateway;
let platform: { url: string; stop(): Promise<void> };
let router: Server;
let routerUrl: string;

beforeAll(async () => {
  lessons = await startListeningGateway({ SUBGRAPH: '1' });
  const platformServer = new ApolloServer({
    schema: buildSubgraphSchema([
      {
        typeDefs: parse(PLATFORM_SDL),
        resolvers: {
          Query: { platformStatus: () => 'ok' },
          User: { __resolveReference: ({ id }: { id: string }) => ({ id, email: `user${id}@school.test`, school: 'Lincoln High' }) },
        },
      },
    ]),
  });
  const { url } = await startStandaloneServer(platformServer, { listen: { port: 0, host: '127.0.0.1' } });
  platform = { url, stop: () => platformServer.stop() };

  const lessonsUrl = lessons.wsUrl.replace(/^ws/, 'http');
  const lessonsSdl = ((await lessons.graphql('{ _service { sdl } }')).data as { _service: { sdl: string } })._service.sdl;
  const composed = composeServices([
    { name: 'lessons', typeDefs: parse(lessonsSdl), url: lessonsUrl },
    { name: 'platform', typeDefs: parse(PLATFORM_SDL), url },
  ]);
  if (composed.errors?.length) throw new Error(`composition failed: ${composed.errors.map((error) => error.message).join('; ')}`);

  const gateway = createGatewayRuntime({
    supergraph: composed.supergraphSdl!,
    logging: false,
    // The client's credentials go to the subgraphs as they came; the subgraph trusts nothing else.
    propagateHeaders: { fromClientToSubgraphs: ({ request }) => ({ authorization: request.headers.get('authorization') ?? '' }) },
    transportEntries: {
      lessons: {
        options: {
          subscriptions: {
            kind: 'ws',
            location: '/graphql',
            options: { connectionParams: { authorization: '{context.connectionParams.authorization}' } },
          },
        },
      },
    },
  });
  // The runtime is a fetch-style handler, which node:http takes as a request listener.
  router = createServer((request, response) => void gateway(request, response));
  const sockets = new WebSocketServer({ server: router, path: gateway.graphqlEndpoint });
  useServer(
    getGraphQLWSOptions(gateway, (ctx) => {
      const extra = ctx.extra as { request?: unknown; socket?: unknown } | undefined;
      return { req: extra?.request, socket: extra?.socket };
    }),
    sockets,
  );
  router.listen(0, '127.0.0.1');
  await once(router, 'listening');
  routerUrl = `http://127.0.0.1:${(router.address() as AddressInfo).port}${gateway.graphqlEndpoint}`;
}, 120_000);

afterAll(async () => {
  router?.closeAllConnections();
  await new Promise((resolve) => router?.close(resolve));
  await platform?.stop();
  await lessons?.close();
});

async function throughRouter(query: string, variables: Record<string, unknown>, token: string) {
  const response = await fetch(routerUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
}

describe('through a supergraph router', () => {
  it('answers a query that crosses both subgraphs: a lesson’s students, with the platform’s email and school', async () => {
    const answer = await throughRouter(
      `query ($id: ID!) { classroomActivity(id: $id) { id sessions { uid student { id name email school } } } }`,
      { id: String(ids.classroomActivity) },
      tokens.owner,
    );
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    const students = answer.data.classroomActivity.sessions.map((session: { student: unknown }) => session.student);
    expect(students).toHaveLength(3);
    expect(students[0]).toEqual({
      id: String(ids.students[0]),
      name: 'Ben Ortiz',
      email: `user${ids.students[0]}@school.test`,
      school: 'Lincoln High',
    });
  });

  it('runs finishLesson with the teacher’s forwarded token, and refuses another teacher’s (FORBIDDEN), changing nothing', async () => {
    const finish = `mutation ($id: ID!) { finishLesson(id: $id, input: {}) { followUpUrl classroomActivity { locked completed } } }`;
    const refused = await throughRouter(finish, { id: String(ids.classroomActivity) }, tokens.otherTeacher);
    expect(refused.errors?.map((error) => error.extensions?.code)).toEqual(['FORBIDDEN']);
    expect((await lessons.graphql(`{ classroomActivity(id: "${ids.classroomActivity}") { completed } }`, {}, tokens.owner)).data).toEqual({
      classroomActivity: { completed: false },
    });
    const finished = await throughRouter(finish, { id: String(ids.classroomActivity) }, tokens.owner);
    expect(finished.errors).toBeUndefined();
    expect(finished.data.finishLesson.classroomActivity).toEqual({ locked: true, completed: true });
    await lessons.reset();
  });

  it('follows a live lesson over the router’s WebSocket, which reaches the subgraph’s, and hears FINISHED', async () => {
    const client = createClient({
      url: routerUrl.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${tokens.owner}` },
    });
    const events: unknown[] = [];
    const ended = new Promise((resolve) =>
      client.subscribe(
        {
          query: `subscription ($id: ID!) { lessonEvents(classroomActivityId: $id) { kind followUpUrl } }`,
          variables: { id: String(ids.classroomActivity) },
        },
        { next: (value) => void events.push(value), error: resolve, complete: () => resolve('complete') },
      ),
    );
    await lessons.waitForLog('subscription started');
    const finished = await lessons.rest('PUT', `/api/v1/classroom_activities/${ids.classroomActivity}/finish_lesson`, {
      token: tokens.owner,
      body: {},
    });
    expect(finished.status).toBe(200);
    await waitFor(() => events.length === 1, 'FINISHED through the router');
    expect(events[0]).toEqual({ data: { lessonEvents: { kind: 'FINISHED', followUpUrl: finished.body.follow_up_url } } });
    await client.dispose();
    void ended;
    await lessons.reset();
  });

  it('reads activities for anyone across the graph, by key', async () => {
    const answer = await throughRouter(`{ activity(id: "${uids.lesson}") { uid name } platformStatus }`, {}, tokens.student);
    expect(answer.data).toEqual({ activity: { uid: uids.lesson, name: expect.any(String) }, platformStatus: 'ok' });
  });
});
