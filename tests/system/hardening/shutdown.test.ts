import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { rawStream, waitFor } from '../../kit/live.ts';
import { freshDatabaseEnv, startServerProcess, stopServerProcesses } from '../../kit/server-process.ts';

// The real server, started as `npm start` starts it (the bundle in dist/), serves every face, and gets
// SIGTERM while requests are in flight: they are answered, new connections are refused, event streams end
// cleanly, and the process exits 0 after closing the database.

afterAll(() => stopServerProcesses());

/** Opens a connection and sends a request's head and the first part of its body: it is now in flight. */
async function startRequest(port: number, body: string, cut: number): Promise<{ socket: Socket; finish: () => Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, cut)}`,
  );
  return {
    socket,
    finish: async () => {
      socket.write(body.slice(cut));
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      return answer;
    },
  };
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('npm start', () => {
  it('serves GraphQL, REST, the docs and the playground from the bundle, on the demo data', async () => {
    // On a database nothing has touched yet, as the first start finds it: migrated, then the demo data loaded.
    const { child, origin: base, exited, output } = await startServerProcess(await freshDatabaseEnv('lgw_test_server', { brandNew: true }));
    const rest = await fetch(`${base}/api/v1/activities/-KsL6d9-ij4oM7qMUZFm`);
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { activity: { uid: string } }).activity.uid).toBe('-KsL6d9-ij4oM7qMUZFm');
    const graphql = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ activity(id: "-KsL6d9-ij4oM7qMUZFm") { name classification { key } } }' }),
    });
    expect(((await graphql.json()) as { data: { activity: { name: string } } }).data.activity.name).toEqual(expect.any(String));
    expect((await fetch(`${base}/api/v1/docs`)).status).toBe(200);
    const page = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
    expect(await page.text()).toContain('playground/graphiql.js');
    const script = await fetch(`${base}/playground/graphiql.js`);
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(100_000);
    child.kill('SIGTERM');
    expect(await exited, output()).toBe(0);
  }, 60_000);
});

describe('SIGTERM', () => {
  it('finishes in-flight requests, refuses new connections, closes the database and exits 0', async () => {
    const { child, port, exited, output } = await startServerProcess();
    const body = JSON.stringify({ query: 'query Slow { activities(first: 5) { totalCount edges { node { uid name } } } }' });
    const first = await startRequest(port, body, 10);
    const second = await startRequest(port, body, 30);
    await sleep(300);

    child.kill('SIGTERM');
    await sleep(500);
    expect(child.exitCode).toBeNull(); // still serving the two requests
    expect(await canConnect(port)).toBe(false);

    for (const request of [first, second]) {
      const answer = await request.finish();
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(answer).toMatch(/connection: close/i);
      expect(answer).toContain('"totalCount":3');
    }
    expect(await exited).toBe(0);
    expect(output()).toMatch(/draining in-flight requests/);
    expect(output()).toMatch(/"msg":"shut down"/);
  }, 120_000);
});

describe('SIGTERM with live lessons over Server-Sent Events', () => {
  it('ends every event stream with complete, then its response, and exits 0: open streams do not hold the server', async () => {
    const server = await startServerProcess();
    const token = /A demo teacher's token: (\S+)/.exec(server.output())?.[1];
    const classroomActivityId = /classroom_activities\/(\d+)\/student_names/.exec(server.output())?.[1];
    expect(token && classroomActivityId).toBeTruthy();
    const streams = await Promise.all(
      [0, 1].map(() =>
        rawStream(`${server.origin}/graphql/stream`, {
          headers: { authorization: `Bearer ${token}` },
          variables: { id: classroomActivityId },
        }),
      ),
    );
    expect(streams.map((stream) => stream.status)).toEqual([200, 200]);
    await waitFor(() => server.output().split('"msg":"subscription started"').length === 3, 'both subscriptions started', 30_000);

    server.child.kill('SIGTERM');
    for (const stream of streams) {
      await stream.ended;
      expect(stream.events()).toEqual([{ event: 'complete', data: null }]);
      // The response ended as HTTP says (the last chunk), not cut.
      expect(stream.response.complete).toBe(true);
    }
    expect(await server.exited, server.output()).toBe(0);
    expect(server.output()).toMatch(/"msg":"subscription ended"/);
    expect(server.output()).toMatch(/"msg":"shut down"/);
  }, 120_000);
});
