import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPERATION_NAMES } from '../../../src/metrics/metrics.ts';
import { tokens, uids } from '../../kit/fixture.ts';
import { follow, followStream, startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';
import { matching, scrape, total, type Sample } from '../../kit/metrics.ts';
import { freePort } from '../../kit/ports.ts';

// Prometheus metrics on their own port (README, Operations): GET /metrics there and nowhere else, the
// request histogram by route template, GraphQL operations and errors, the database's connections, the
// admission queue and the live lessons' sockets, each moved by real requests; and label values that stay
// bounded whatever a client sends.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('metrics', () => {
  let gateway: ListeningGateway;
  let metricsUrl: string;
  let base: string;
  beforeAll(async () => {
    const port = await freePort();
    // Admission as in tests/system/hardening/admission.test.ts: room for one 1 MB body, one more may wait, for a second.
    gateway = await startListeningGateway({
      METRICS_PORT: String(port),
      BODY_LIMIT: '1mb',
      ADMISSION_BYTES: '1mb',
      ADMISSION_QUEUE: '1',
      ADMISSION_QUEUE_TIMEOUT: '1s',
    });
    await gateway.reset();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    base = gateway.wsUrl.replace('ws://', 'http://').replace('/graphql', '');
  });
  afterAll(() => gateway?.close());

  it('are served on the metrics port alone, GET /metrics only', async () => {
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(gateway.logs().find((line) => line.msg === 'metrics: serving GET /metrics')?.url).toBe(metricsUrl);

    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/graphql'))).status).toBe(404);
    const post = await fetch(metricsUrl, { method: 'POST', body: '' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');

    // The public port does not know the route.
    const main = await fetch(`${base}/metrics`);
    expect(main.status).toBe(404);
    expect(await main.text()).not.toContain('process_cpu');
  });

  it('include the process and Node.js defaults: CPU, resident memory, event-loop lag, GC', async () => {
    const text = await (await fetch(metricsUrl)).text();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_gc_duration_seconds',
    ])
      expect(text).toContain(`# TYPE ${name} `);
    const samples = await scrape(metricsUrl);
    expect(total(samples, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
  });

  it('time requests by method, route template and status: REST, /graphql and the probes; unknown paths grouped', async () => {
    const before = await scrape(metricsUrl);
    const count = (samples: Sample[], labels: Record<string, string>) =>
      total(samples, 'http_server_request_duration_seconds_count', labels);

    const madeUp = `made-up-${randomBytes(6).toString('hex')}`;
    for (let n = 0; n < 3; n++) expect((await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`)).status).toBe(200);
    expect((await gateway.rest('GET', `/api/v1/activities/${madeUp}`)).status).toBe(404);
    expect((await gateway.rest('GET', '/healthz')).status).toBe(200);
    expect((await gateway.graphql('{ activity(id: "10") { uid } }')).status).toBe(200);
    expect((await gateway.rest('GET', `/${madeUp}/1234?token=${madeUp}`)).status).toBe(404);
    expect((await gateway.rest('GET', '/graphql?query=%7B__typename%7D', { headers: { accept: 'application/json' } })).status).toBe(200);

    const after = await scrape(metricsUrl);
    const moved = (labels: Record<string, string>) => count(after, labels) - count(before, labels);
    expect(moved({ method: 'GET', route: '/api/v1/activities/:id', status_code: '200' })).toBe(3);
    expect(moved({ method: 'GET', route: '/api/v1/activities/:id', status_code: '404' })).toBe(1);
    expect(moved({ method: 'GET', route: '/healthz', status_code: '200' })).toBe(1);
    expect(moved({ method: 'POST', route: '/graphql', status_code: '200' })).toBe(1);
    expect(moved({ method: 'GET', route: '/graphql', status_code: '200' })).toBe(1);
    expect(moved({ method: 'GET', route: '(unmatched)', status_code: '404' })).toBe(1);

    // A histogram: cumulative buckets up to +Inf, which holds every request, and a sum of seconds.
    const buckets = matching(after, 'http_server_request_duration_seconds_bucket', { route: '/api/v1/activities/:id', status_code: '200' });
    expect(buckets.map((bucket) => bucket.labels.le)).toContain('+Inf');
    expect(buckets.find((bucket) => bucket.labels.le === '+Inf')?.value).toBe(
      count(after, { route: '/api/v1/activities/:id', status_code: '200' }),
    );
    expect(total(after, 'http_server_request_duration_seconds_sum', { route: '/api/v1/activities/:id' })).toBeGreaterThan(0);

    // Never a raw path, an id, a query string or a token in a label.
    const text = await (await fetch(metricsUrl)).text();
    expect(text).not.toContain(madeUp);
    expect(text).not.toContain(uids.lesson);
    const routes = new Set(matching(after, 'http_server_request_duration_seconds_count').map((sample) => sample.labels.route));
    for (const route of routes) expect(route === '(unmatched)' || !/\d{3,}|[A-Za-z0-9_-]{20,}/.test(route!), route).toBe(true);
  });

  it('count GraphQL operations by name, type and outcome, errors by code, and the REST routes’ stored operations', async () => {
    const before = await scrape(metricsUrl);
    const ops = (samples: Sample[], labels: Record<string, string>) => total(samples, 'graphql_operations_total', labels);
    const errs = (samples: Sample[], labels: Record<string, string>) => total(samples, 'graphql_errors_total', labels);

    expect((await gateway.graphql('query ActivityName { activity(id: "10") { name } }')).errors).toBeUndefined();
    expect((await gateway.graphql('query ActivityName { activity(id: "10") { name } }')).errors).toBeUndefined();
    const refused = await gateway.graphql('mutation Lock { unpinAndLock(id: "100") { pinned } }', {}, tokens.student);
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const wrongToken = await gateway.graphql('query Me { viewer { id } }', {}, 'not-a-token');
    expect(wrongToken.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const invalid = await gateway.graphql('query Broken { activity(id: "10") { noSuchField } }');
    expect(invalid.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((await gateway.graphql('{ activity(id: "10") { uid } }')).errors).toBeUndefined();
    expect((await gateway.rest('GET', '/api/v1/classroom_activities/100/student_names', { token: tokens.owner })).status).toBe(200);
    expect((await gateway.rest('PUT', '/api/v1/classroom_activities/100/unpin_and_lock_activity')).status).toBe(401);

    const after = await scrape(metricsUrl);
    const moved = (labels: Record<string, string>) => ops(after, labels) - ops(before, labels);
    const errorsMoved = (labels: Record<string, string>) => errs(after, labels) - errs(before, labels);
    const graphql = { api: 'graphql' };
    expect(moved({ ...graphql, operation_name: 'ActivityName', operation_type: 'query', outcome: 'success' })).toBe(2);
    expect(moved({ ...graphql, operation_name: 'Lock', operation_type: 'mutation', outcome: 'error' })).toBe(1);
    expect(moved({ ...graphql, operation_name: '(anonymous)', operation_type: 'query', outcome: 'success' })).toBe(1);
    // A document that did not validate has no operation to name.
    expect(moved({ ...graphql, operation_name: '(unknown)', operation_type: '(unknown)', outcome: 'error' })).toBe(1);
    expect(errorsMoved({ ...graphql, code: 'FORBIDDEN' })).toBe(1);
    expect(errorsMoved({ ...graphql, code: 'GRAPHQL_VALIDATION_FAILED' })).toBe(1);
    expect(moved({ ...graphql, operation_name: 'Me', operation_type: 'query', outcome: 'error' })).toBe(1);
    expect(errorsMoved({ ...graphql, code: 'UNAUTHENTICATED' })).toBe(1);
    // A request that is not GraphQL at all.
    const malformed = await gateway.rest('POST', '/graphql', { body: { variables: {} } });
    expect(malformed.status).toBe(400);
    const afterMalformed = await scrape(metricsUrl);
    expect(
      ops(afterMalformed, { ...graphql, operation_name: '(unknown)', outcome: 'error' }) -
        ops(after, { ...graphql, operation_name: '(unknown)' }),
    ).toBe(1);
    expect(errs(afterMalformed, { ...graphql, code: 'BAD_REQUEST' }) - errs(after, { ...graphql, code: 'BAD_REQUEST' })).toBe(1);

    expect(moved({ api: 'rest', operation_name: 'StudentNames', operation_type: 'query', outcome: 'success' })).toBe(1);
    expect(moved({ api: 'rest', operation_name: 'UnpinAndLock', operation_type: 'mutation', outcome: 'error' })).toBe(1);
    expect(errorsMoved({ api: 'rest', code: 'UNAUTHENTICATED' })).toBe(1);
  });

  it('keep operation names bounded: 5,000 distinct names add at most MAX_OPERATION_NAMES series, the rest count as (other)', async () => {
    const before = await scrape(metricsUrl);
    const NAMES = 5_000;
    const prefix = `Flood${randomBytes(4).toString('hex')}`;
    for (let batch = 0; batch < NAMES; batch += 100) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, n) => gateway.graphql(`query ${prefix}_${batch + n} { __typename }`)),
      );
      for (const answer of answers) expect(answer.data).toEqual({ __typename: 'Query' });
    }
    const after = await scrape(metricsUrl);

    // Every operation is counted ...
    const counted = (samples: Sample[]) => total(samples, 'graphql_operations_total', { api: 'graphql' });
    expect(counted(after) - counted(before)).toBe(NAMES);
    // ... under at most MAX_OPERATION_NAMES names in all (some were taken by the tests before), then (other).
    const names = new Set(matching(after, 'graphql_operations_total', { api: 'graphql' }).map((sample) => sample.labels.operation_name));
    const realNames = [...names].filter((name) => !name!.startsWith('('));
    expect(realNames.length).toBe(MAX_OPERATION_NAMES);
    const flooded = realNames.filter((name) => name!.startsWith(prefix)).length;
    expect(total(after, 'graphql_operations_total', { api: 'graphql', operation_name: '(other)' })).toBe(NAMES - flooded);
    const series = (samples: Sample[]) => matching(samples, 'graphql_operations_total').length;
    expect(series(after) - series(before)).toBeLessThanOrEqual(flooded + 1);
    // And the whole exposition stays small (the request histogram is most of it).
    expect(after.length).toBeLessThan(1_500);
  });

  it('show the database connections in use, idle and waiting', async () => {
    const postgres = gateway.database.kind === 'postgresql';
    const idle = await scrape(metricsUrl);
    expect(total(idle, 'db_client_connection_max')).toBe(postgres ? 10 : 1);
    expect(total(idle, 'db_client_connection_count', { state: 'used' })).toBe(0);
    expect(total(idle, 'db_client_connection_pending_requests')).toBe(0);

    // Twelve transactions that hold their connection until released: ten (one on PGlite) run, the others wait.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holding = Array.from({ length: 12 }, () =>
      gateway.database.prisma.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1`;
          await released;
        },
        { maxWait: 20_000, timeout: 30_000 },
      ),
    );
    try {
      await waitFor(async () => total(await scrape(metricsUrl), 'db_client_connection_pending_requests') >= 1, 'a waiting transaction');
      const busy = await scrape(metricsUrl);
      const max = postgres ? 10 : 1;
      expect(total(busy, 'db_client_connection_count', { state: 'used' })).toBe(max);
      expect(total(busy, 'db_client_connection_count', { state: 'idle' })).toBe(0);
      expect(total(busy, 'db_client_connection_pending_requests')).toBe(12 - max);
    } finally {
      release();
      await Promise.all(holding);
    }
    const after = await scrape(metricsUrl);
    expect(total(after, 'db_client_connection_count', { state: 'used' })).toBe(0);
    expect(total(after, 'db_client_connection_pending_requests')).toBe(0);
    expect(total(after, 'db_client_connection_count', { state: 'idle' })).toBeGreaterThanOrEqual(1);
  });

  it('show open WebSocket connections and running subscriptions', async () => {
    const live = (samples: Sample[]) => [total(samples, 'graphql_ws_connections'), total(samples, 'graphql_subscriptions')];
    expect(live(await scrape(metricsUrl))).toEqual([0, 0]);
    const teacher = follow(gateway.wsUrl, 100, tokens.owner);
    const coteacher = follow(gateway.wsUrl, 100, tokens.coteacher);
    await gateway.waitForLog('subscription started', 2);
    expect(live(await scrape(metricsUrl))).toEqual([2, 2]);
    await teacher.client.dispose();
    await waitFor(async () => live(await scrape(metricsUrl))[0] === 1, 'one socket closed');
    expect(live(await scrape(metricsUrl))).toEqual([1, 1]);
    await coteacher.client.dispose();
    await waitFor(async () => live(await scrape(metricsUrl))[0] === 0, 'every socket closed');
    expect(live(await scrape(metricsUrl))).toEqual([0, 0]);
  });

  it('count event streams with the sockets, and forget a stream the moment its client goes away', async () => {
    const live = (samples: Sample[]) => [total(samples, 'graphql_ws_connections'), total(samples, 'graphql_subscriptions')];
    await waitFor(async () => live(await scrape(metricsUrl))[0] === 0, 'the sockets of earlier tests closed');
    const started = gateway.logs().filter((line) => line.msg === 'subscription started').length;
    const socket = follow(gateway.wsUrl, 100, tokens.owner);
    const stream = followStream(gateway.streamUrl, 100, tokens.coteacher);
    await gateway.waitForLog('subscription started', started + 2);
    expect(live(await scrape(metricsUrl))).toEqual([2, 2]);
    stream.client.dispose();
    await waitFor(async () => live(await scrape(metricsUrl))[0] === 1, 'the stream gone');
    expect(live(await scrape(metricsUrl))).toEqual([1, 1]);
    await socket.client.dispose();
    await waitFor(async () => live(await scrape(metricsUrl))[0] === 0, 'every connection closed');
    expect(live(await scrape(metricsUrl))).toEqual([0, 0]);
  });

  it('show the admission queue and its refusals', async () => {
    const port = Number(new URL(base).port);
    const before = await scrape(metricsUrl);
    const refusals = (samples: Sample[], reason: string) => total(samples, 'http_admission_refusals_total', { reason });
    // A request whose 1 MB body is still arriving holds the whole budget; the next one waits; a third is refused.
    const head = `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024}\r\n\r\n{"query":`;
    const sockets: Socket[] = [];
    const open = async () => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(head);
      sockets.push(socket);
      return socket;
    };
    try {
      await open();
      await sleep(200);
      await open();
      await waitFor(async () => total(await scrape(metricsUrl), 'http_admission_queue_length') === 1, 'one request waiting');
      expect(total(await scrape(metricsUrl), 'http_admission_bytes_in_use')).toBe(1024 * 1024);

      const third = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }', padding: 'x'.repeat(100_000) }),
      });
      expect(third.status).toBe(503);
      const full = await scrape(metricsUrl);
      expect(refusals(full, 'queue_full') - refusals(before, 'queue_full')).toBe(1);

      // The waiting one gives up after ADMISSION_QUEUE_TIMEOUT (1 s).
      await waitFor(async () => total(await scrape(metricsUrl), 'http_admission_queue_length') === 0, 'the wait timed out', 5_000);
      const after = await scrape(metricsUrl);
      expect(refusals(after, 'timed_out') - refusals(before, 'timed_out')).toBe(1);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    await waitFor(async () => total(await scrape(metricsUrl), 'http_admission_bytes_in_use') === 0, 'the room given back');
  });
});
