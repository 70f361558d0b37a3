import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/db/client.ts';
import type { BenchCase, HttpRequest } from './cases.ts';

// The measurements of a case: throughput and latency over HTTP (autocannon against a child process), the
// same-data check across servers, and the gateway's SQL statements per request (in-process, where its
// statement counter can be read; the peer and the baseline count theirs: bench/statement-counter.ts).

export type LoadResult = {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** The mean latency: finer than the percentiles, which autocannon counts in whole milliseconds. */
  meanMs: number;
  /** Answered requests. */
  requests: number;
  /** Sent requests: the answered ones and those still in flight when the load stopped, which the server still served. */
  sent: number;
  durationS: number;
  /** Non-2xx answers, connection errors and timeouts. */
  failures: number;
  /** Set when the hard time cap ended the run before its requests were done. */
  cappedAfterS?: number;
};

function fire(
  baseUrl: string,
  connections: number,
  next: () => HttpRequest,
  bound: { seconds: number } | { amount: number },
  capSeconds: number,
) {
  return new Promise<{ result: autocannon.Result; capped: boolean }>((resolve, reject) => {
    let capped = false;
    const instance = autocannon(
      {
        url: baseUrl,
        connections,
        ...('amount' in bound ? { amount: bound.amount } : { duration: bound.seconds }),
        // Each call builds the next request: rotation over the data set, or the next unused lesson.
        requests: [{ setupRequest: (request) => Object.assign(request, next()) }],
      },
      (error, result) => {
        clearTimeout(cap);
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve({ result, capped });
      },
    );
    // Belt and braces: a server slower than planned must not keep an amount-bounded run going for long.
    const cap = setTimeout(() => {
      capped = true;
      instance.stop();
    }, capSeconds * 1_000);
  });
}

/** Load without measuring: fills the server's pool and warms its JIT before a measured run. */
export async function warmUp(benchCase: BenchCase, baseUrl: string, seconds: number): Promise<void> {
  if (benchCase.prepared !== undefined || seconds <= 0) return;
  let i = 0;
  await fire(baseUrl, benchCase.connections, () => benchCase.request(i++), { seconds }, seconds + 10);
}

export async function runLoad(benchCase: BenchCase, baseUrl: string, seconds: number): Promise<LoadResult> {
  const { connections } = benchCase;
  let bound: { seconds: number } | { amount: number };
  let next: () => HttpRequest;
  if (benchCase.prepared === undefined) {
    let i = 0;
    next = () => benchCase.request(i++);
    bound = { seconds };
  } else {
    // Request 0 was spent by the statement probe. Bodies are built before the clock starts, so that
    // building a 1,000-result body is not timed; the amount never exceeds what was prepared.
    const prebuilt = Array.from({ length: benchCase.prepared - 1 }, (_, k) => benchCase.request(k + 1));
    if (prebuilt.length < connections)
      throw new Error(`${benchCase.name}: only ${prebuilt.length} prepared requests for ${connections} connections`);
    let i = 0;
    next = () => prebuilt[Math.min(i++, prebuilt.length - 1)]!;
    bound = { amount: prebuilt.length };
  }
  const capSeconds = seconds * 3 + 10;
  const { result, capped } = await fire(baseUrl, connections, next, bound, capSeconds);
  return {
    reqPerSec: result.duration > 0 ? result.requests.total / result.duration : 0,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: result.latency.mean,
    requests: result.requests.total,
    // autocannon reports it; its type definitions do not list it.
    sent: (result.requests as { sent?: number }).sent ?? result.requests.total,
    durationS: result.duration,
    // A conditional case's answers are all 304s: any other status is a failure.
    failures: (benchCase.expectStatus === 304 ? result.requests.total - result['3xx'] : result.non2xx) + result.errors + result.timeouts,
    ...(capped ? { cappedAfterS: capSeconds } : {}),
  };
}

/** The i-th request of a case over HTTP: its status and body. */
export async function send(benchCase: BenchCase, baseUrl: string, i = 0): Promise<{ status: number; text: string }> {
  const { method, path, headers, body } = benchCase.request(i);
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: body ?? null, signal: AbortSignal.timeout(30_000) });
  return { status: response.status, text: await response.text() };
}

/** A request's ETag, sent over HTTP (`prepare`'s `tagOf`). */
export const tagOver =
  (baseUrl: string) =>
  async ({ method, path, headers, body }: HttpRequest): Promise<string> => {
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: body ?? null, signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    return response.headers.get('etag') ?? '';
  };

/** One real request over HTTP before the load (after the case's `prepare`): a wrong answer (e.g. GraphQL errors in a 200) stops the case. */
export async function preflight(benchCase: BenchCase, baseUrl: string): Promise<string | null> {
  await benchCase.prepare?.(tagOver(baseUrl));
  const { status, text } = await send(benchCase, baseUrl);
  return benchCase.check(status, text);
}

/** Requests of a read compared across servers: the first few and one further along the rotation. */
const SAME_DATA_SAMPLES = [0, 1, 7];

/**
 * Whether two servers answer a read with the same data (bench/cases.ts, `data`): a baseline must give the
 * gateway's JSON value itself, the peer the same data in its own names. Null when they agree.
 */
export async function differentData(
  gateway: { benchCase: BenchCase; url: string },
  other: { benchCase: BenchCase; url: string },
): Promise<string | null> {
  for (const i of SAME_DATA_SAMPLES) {
    const [mine, theirs] = await Promise.all([send(gateway.benchCase, gateway.url, i), send(other.benchCase, other.url, i)]);
    const problem = gateway.benchCase.check(mine.status, mine.text) ?? other.benchCase.check(theirs.status, theirs.text);
    if (problem) return `request ${i}: ${problem}`;
    const [a, b] =
      other.benchCase.server === 'baseline'
        ? [JSON.parse(mine.text), JSON.parse(theirs.text)]
        : [gateway.benchCase.data!(JSON.parse(mine.text)), other.benchCase.data!(JSON.parse(theirs.text))];
    if (!isDeepStrictEqual(a, b))
      return `request ${i}: not the gateway's data: ${JSON.stringify(b).slice(0, 200)} … vs ${JSON.stringify(a).slice(0, 200)} …`;
  }
  return null;
}

export type StatementCount = { statements: number } | { problem: string };

/**
 * SQL statements for one request: the counter of the in-process database before and after `inject`.
 * A reusable request is sent twice and the second counted, so that first-use work does not count.
 */
export async function countStatements(app: FastifyInstance, database: Database, benchCase: BenchCase): Promise<StatementCount> {
  const inject = ({ method, path, headers, body }: HttpRequest) =>
    app.inject({ method, url: path, headers, ...(body === undefined ? {} : { payload: body }) });
  await benchCase.prepare?.(async (request) => String((await inject(request)).headers.etag ?? ''));
  const send = () => inject(benchCase.request(0));
  if (benchCase.prepared === undefined) await send();
  const before = database.statementCount();
  const response = await send();
  const statements = database.statementCount() - before;
  const problem = benchCase.check(response.statusCode, response.body);
  return problem ? { problem } : { statements };
}
