import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { follow, waitFor } from '../../kit/live.ts';
import { startServerProcess, stopServerProcesses, type ServerProcess } from '../../kit/server-process.ts';

// Traces (README, Tracing), as an operator gets them: the real server (`npm start`'s bundle) with only
// the standard OTEL_* variables set, sending OTLP over HTTP to a receiver in this test. The batch delay is
// set beyond the test's length, so every span here arrived through the flush at SIGTERM. And without an
// endpoint, no OpenTelemetry module is loaded at all.

const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;
const STATUS_ERROR = 2;
/** Only the flush at shutdown sends spans (the default would send every 5 s). */
const NEVER_BEFORE_SHUTDOWN = { OTEL_BSP_SCHEDULE_DELAY: '3600000' };

type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  status: { code?: number };
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
};

type OtlpAttribute = { key: string; value: Record<string, unknown> };
type OtlpJson = {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: { spans: (Omit<ReceivedSpan, 'attributes' | 'resource'> & { attributes?: OtlpAttribute[] })[] }[];
  }[];
};

const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));

/** A tiny OTLP/HTTP receiver: keeps every export request, answers 200. */
async function startReceiver() {
  const requests: { path: string; contentType: string; body: Buffer }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = request.headers['content-type'] ?? '';
      requests.push({ path: request.url ?? '', contentType, body: Buffer.concat(chunks) });
      response.writeHead(200, { 'content-type': contentType }).end(contentType.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    /** Every span received as OTLP JSON, with its resource's attributes. */
    spans: (): ReceivedSpan[] =>
      requests
        .filter((request) => request.contentType.includes('json'))
        .flatMap((request) => (JSON.parse(request.body.toString('utf8')) as OtlpJson).resourceSpans)
        .flatMap(({ resource, scopeSpans }) =>
          scopeSpans.flatMap(({ spans }) =>
            spans.map((span) => ({ ...span, attributes: attributesOf(span.attributes), resource: attributesOf(resource.attributes) })),
          ),
        ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A module hook (NODE_OPTIONS=--import) that writes down every OpenTelemetry module the process resolves. */
async function moduleRecorder(dir: string) {
  const log = join(dir, 'modules.log');
  await writeFile(log, '');
  await writeFile(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (/@opentelemetry|@prisma\\/instrumentation/.test(resolved.url)) appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}
`,
  );
  await writeFile(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
  return {
    env: {
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${pathToFileURL(join(dir, 'register.mjs')).href}`].filter(Boolean).join(' '),
    },
    loaded: async () => (await readFile(log, 'utf8')).split('\n').filter(Boolean),
  };
}

const newTraceparent = () => {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceId, parentId, sampled: `00-${traceId}-${parentId}-01`, unsampled: `00-${traceId}-${parentId}-00` };
};

const demoToken = (server: ServerProcess) => /A demo teacher's token: (\S+)/.exec(server.output())![1]!;
const logLines = (server: ServerProcess) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

async function stop(server: ServerProcess) {
  server.child.kill('SIGTERM');
  expect(await server.exited, server.output()).toBe(0);
}

/** Whether `span` is `ancestor` or below it. */
function descendsFrom(span: ReceivedSpan, ancestor: ReceivedSpan, all: ReceivedSpan[]): boolean {
  for (let current: ReceivedSpan | undefined = span; current; current = all.find((s) => s.spanId === current.parentSpanId))
    if (current.spanId === ancestor.spanId) return true;
  return false;
}

let dir: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lgw-tracing-'));
  receiver = await startReceiver();
});
afterAll(async () => {
  await stopServerProcesses();
  await receiver?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('tracing over OTLP/HTTP (http/json)', () => {
  let server: ServerProcess;
  let recorder: Awaited<ReturnType<typeof moduleRecorder>>;
  const rest = newTraceparent();
  const unsampled = newTraceparent();
  const router = newTraceparent();

  beforeAll(async () => {
    recorder = await moduleRecorder(await mkdtemp(join(dir, 'on-')));
    server = await startServerProcess({
      ...recorder.env,
      ...NEVER_BEFORE_SHUTDOWN,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin,
      // Every request reads its token, so that each trace shows that statement (src/auth/token-cache.ts).
      TOKEN_CACHE_TTL: '0',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'lessons-gateway-under-test',
      // A subgraph too, so that a router's entity request can be traced (docs/federation.md).
      SUBGRAPH: '1',
    });
    const token = demoToken(server);
    const entities = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, traceparent: router.sampled },
      body: JSON.stringify({
        query: 'query Lesson__lessons__1($r: [_Any!]!) { _entities(representations: $r) { ... on ClassroomActivity { locked } } }',
        variables: { r: [{ __typename: 'ClassroomActivity', id: '100' }] },
      }),
    });
    expect(await entities.json()).toEqual({ data: { _entities: [{ locked: expect.any(Boolean) }] } });
    const traced = await fetch(`${server.origin}/api/v1/classroom_activities/100/student_names`, {
      headers: { authorization: `Bearer ${token}`, traceparent: rest.sampled },
    });
    expect(traced.status).toBe(200);
    const notSampled = await fetch(`${server.origin}/api/v1/classroom_activities/100/student_names`, {
      headers: { authorization: `Bearer ${token}`, traceparent: unsampled.unsampled },
    });
    expect(notSampled.status).toBe(200);
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);

    // A live lesson's subscription, followed until the server has started it; SIGTERM then closes it.
    const follower = follow(server.origin.replace('http', 'ws') + '/graphql', 100, token);
    await waitFor(() => server.output().includes('"msg":"subscription started"'), 'the subscription to start', 30_000);
    expect(server.output()).toContain(`Traces:    sent to ${receiver.origin}/v1/traces`);
    await stop(server);
    await follower.client.dispose();
  }, 120_000);

  it("continues the caller's trace: the HTTP span with http.route, the stored operation's span, a span per SQL statement", () => {
    const spans = receiver.spans();
    const trace = spans.filter((span) => span.traceId === rest.traceId);
    const http = trace.filter((span) => span.kind === SPAN_KIND.SERVER);
    expect(http).toHaveLength(1);
    const [request] = http as [ReceivedSpan];
    expect(request.parentSpanId).toBe(rest.parentId);
    expect(request.name).toBe('GET /api/v1/classroom_activities/:id/student_names');
    expect(request.attributes).toMatchObject({
      'http.route': '/api/v1/classroom_activities/:id/student_names',
      'http.response.status_code': 200,
    });
    expect(request.resource['service.name']).toBe('lessons-gateway-under-test');

    // The REST route's stored operation, under the HTTP span.
    const operations = trace.filter((span) => span.attributes['graphql.operation.type'] !== undefined);
    expect(operations).toHaveLength(1);
    const [operation] = operations as [ReceivedSpan];
    expect(operation).toMatchObject({
      name: 'query StudentNames',
      parentSpanId: request.spanId,
      attributes: { 'graphql.operation.name': 'StudentNames', 'graphql.operation.type': 'query' },
    });
    expect(operation.status.code).not.toBe(STATUS_ERROR);

    // Every span of the request is in the one trace, under its HTTP span.
    for (const span of trace) expect(descendsFrom(span, request, trace), span.name).toBe(true);

    // SQL: the token's read, straight on the driver (before the operation), and the operation's own
    // statements (driver reads, or Prisma's, each under the Prisma operation that sent it) in its span.
    const statements = trace.filter((span) => span.attributes['db.system'] === 'postgresql');
    for (const statement of statements) {
      expect(statement.kind).toBe(SPAN_KIND.CLIENT);
      expect(statement.attributes['db.query.text']).toEqual(expect.stringMatching(/\S/));
      // On a server, each names the one it ran on (docs/operations.md, Read replicas).
      if (process.env.DATABASE_URL)
        expect(statement.attributes).toMatchObject({ 'server.address': '127.0.0.1', 'server.port': expect.anything() });
    }
    const driverReads = statements.filter((span) => span.parentSpanId === request.spanId);
    expect(driverReads.map((span) => span.attributes['db.query.text'])).toEqual([expect.stringContaining('access_tokens')]);
    const inOperation = statements.filter((span) => descendsFrom(span, operation, trace));
    expect(inOperation.length).toBeGreaterThan(0);
    expect(statements).toHaveLength(driverReads.length + inOperation.length);
    const prismaStatements = statements.filter((span) => span.name === 'prisma:client:db_query');
    // Each Prisma operation sent its statements: none is without one.
    for (const prismaOperation of trace.filter((span) => span.name === 'prisma:client:operation'))
      expect(prismaStatements.some((statement) => statement.parentSpanId === prismaOperation.spanId)).toBe(true);
  });

  it("joins a router's trace with a subgraph's entity request: its HTTP span, its operation span, its statements", () => {
    const trace = receiver.spans().filter((span) => span.traceId === router.traceId);
    const [request, ...others] = trace.filter((span) => span.kind === SPAN_KIND.SERVER);
    expect(others).toEqual([]);
    expect(request).toMatchObject({ parentSpanId: router.parentId, attributes: { 'http.route': '/graphql' } });
    const operation = trace.find((span) => span.attributes['graphql.operation.type'] !== undefined);
    expect(operation).toMatchObject({
      name: 'query Lesson__lessons__1',
      attributes: { 'graphql.operation.name': 'Lesson__lessons__1', 'graphql.operation.type': 'query' },
    });
    expect(descendsFrom(operation!, request!, trace)).toBe(true);
    const statements = trace.filter((span) => span.attributes['db.system'] === 'postgresql');
    expect(statements.filter((span) => descendsFrom(span, operation!, trace)).length).toBeGreaterThan(0);
  });

  it("writes the trace id in the request's log line; a caller's unsampled trace and the probes send no span", () => {
    const requests = logLines(server).filter(
      (line) => line.msg === 'request' && line.route === '/api/v1/classroom_activities/:id/student_names',
    );
    expect(requests.map((line) => line.traceId)).toEqual([rest.traceId, unsampled.traceId]);
    const spans = receiver.spans();
    expect(spans.filter((span) => span.traceId === unsampled.traceId)).toEqual([]);
    expect(spans.filter((span) => span.attributes['url.path'] === '/healthz')).toEqual([]);
  });

  it("traces a subscription's start: its operation span, and its connection_init, each with its statements", () => {
    const spans = receiver.spans();
    const subscription = spans.find((span) => span.attributes['graphql.operation.type'] === 'subscription');
    expect(subscription).toMatchObject({ name: 'subscription Follow', attributes: { 'graphql.operation.name': 'Follow' } });
    const inSubscription = spans.filter((span) => span.traceId === subscription!.traceId);
    // The access check (is this user a teacher or student of the lesson?) is Prisma's.
    expect(inSubscription.filter((span) => span.attributes['db.system'] === 'postgresql').length).toBeGreaterThan(0);
    // On a server, every statement span names the server it ran on, Prisma's as the driver-level reads'.
    if (process.env.DATABASE_URL) {
      const everyStatement = spans.filter((span) => span.attributes['db.system'] === 'postgresql');
      expect(everyStatement.some((span) => span.name === 'prisma:client:db_query')).toBe(true);
      for (const span of everyStatement) expect(span.attributes, span.name).toMatchObject({ 'server.address': '127.0.0.1' });
    }
    const connectionInit = spans.find((span) => span.name === 'graphql-ws connection_init');
    const inConnectionInit = spans.filter((span) => span.traceId === connectionInit!.traceId);
    expect(inConnectionInit.map((span) => span.attributes['db.query.text'])).toContainEqual(expect.stringContaining('access_tokens'));
    // Its start and end log lines carry the trace of its start (the end came with SIGTERM's 1001).
    const lines = logLines(server).filter((line) => line.msg === 'subscription started' || line.msg === 'subscription ended');
    expect(lines.map((line) => [line.msg, line.traceId, line.spanId])).toEqual([
      ['subscription started', subscription!.traceId, subscription!.spanId],
      ['subscription ended', subscription!.traceId, subscription!.spanId],
    ]);
  });

  it('loaded the OpenTelemetry SDK (the check below can see it)', async () => {
    expect(await recorder.loaded()).toContainEqual(expect.stringContaining('@opentelemetry/sdk-node'));
  });
});

describe('tracing over OTLP/HTTP (http/protobuf, the default protocol)', () => {
  it('sends the request, its operation and its statements as protobuf', async () => {
    const server = await startServerProcess({ ...NEVER_BEFORE_SHUTDOWN, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin });
    const { traceId, sampled } = newTraceparent();
    const response = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demoToken(server)}`, traceparent: sampled },
      body: JSON.stringify({ query: 'query Nested { classroomActivity(id: "100") { activity { name } studentNames { name } } }' }),
    });
    expect(response.status).toBe(200);
    const before = receiver.requests.length;
    await stop(server);
    // No decoder here: the binary trace id and the attribute names and values are in the message as they are.
    const sent = receiver.requests.slice(before).filter((request) => request.contentType === 'application/x-protobuf');
    expect(sent.map((request) => request.path)).toContain('/v1/traces');
    const body = Buffer.concat(sent.map((request) => request.body));
    expect(body.includes(Buffer.from(traceId, 'hex'))).toBe(true);
    for (const text of ['POST /graphql', 'http.route', 'query Nested', 'graphql.operation.name', 'prisma:client:db_query', 'db.system'])
      expect(body.includes(Buffer.from(text)), text).toBe(true);
    expect(logLines(server).find((line) => line.msg === 'request')?.traceId).toBe(traceId);
  }, 120_000);
});

describe('without an endpoint', () => {
  it('loads no OpenTelemetry module and writes no trace id', async () => {
    const recorder = await moduleRecorder(await mkdtemp(join(dir, 'off-')));
    const server = await startServerProcess({ ...recorder.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' });
    const response = await fetch(`${server.origin}/api/v1/classroom_activities/100/student_names`, {
      headers: { authorization: `Bearer ${demoToken(server)}`, traceparent: newTraceparent().sampled },
    });
    expect(response.status).toBe(200);
    await stop(server);
    expect(await recorder.loaded()).toEqual([]);
    expect(server.output()).not.toContain('Traces:');
    const line = logLines(server).find((entry) => entry.msg === 'request');
    expect(line).toBeDefined();
    expect(line).not.toHaveProperty('traceId');
  }, 120_000);
});
