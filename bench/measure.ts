import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/db/client.ts';
import type { BenchCase, HttpRequest } from './cases.ts';

// The two measurements of a case: throughput and latency over HTTP (autocannon against a child
// process), and SQL statements per request (in-process, where the statement counter can be read).

export type LoadResult = {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Non-2xx answers, connection errors and timeouts. */
  failures: number;
  /** Set when the hard time cap ended the run before its requests were done. */
  cappedAfterS?: number;
};

export type LoadOptions = { seconds: number; warmupSeconds: number };

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

export async function runLoad(benchCase: BenchCase, baseUrl: string, { seconds, warmupSeconds }: LoadOptions): Promise<LoadResult> {
  const { connections } = benchCase;
  let bound: { seconds: number } | { amount: number };
  let next: () => HttpRequest;
  if (benchCase.prepared === undefined) {
    let i = 0;
    next = () => benchCase.request(i++);
    if (warmupSeconds > 0) await fire(baseUrl, connections, next, { seconds: warmupSeconds }, warmupSeconds + 10);
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
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    ...(capped ? { cappedAfterS: capSeconds } : {}),
  };
}

/** One real request over HTTP before the load: a wrong answer (e.g. GraphQL errors in a 200) stops the case. */
export async function preflight(benchCase: BenchCase, baseUrl: string): Promise<string | null> {
  const { method, path, headers, body } = benchCase.request(0);
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: body ?? null, signal: AbortSignal.timeout(30_000) });
  return benchCase.check(response.status, await response.text());
}

export type StatementCount = { statements: number } | { problem: string };

/**
 * SQL statements for one request: the counter of the in-process database before and after `inject`.
 * A reusable request is sent twice and the second counted, so that first-use work does not count.
 */
export async function countStatements(app: FastifyInstance, database: Database, benchCase: BenchCase): Promise<StatementCount> {
  const { method, path, headers, body } = benchCase.request(0);
  const send = () => app.inject({ method, url: path, headers, ...(body === undefined ? {} : { payload: body }) });
  if (benchCase.prepared === undefined) await send();
  const before = database.statementCount();
  const response = await send();
  const statements = database.statementCount() - before;
  const problem = benchCase.check(response.statusCode, response.body);
  return problem ? { problem } : { statements };
}
