import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { cpus, loadavg, totalmem } from 'node:os';
import type { BenchCase } from './cases.ts';
import type { LoadResult } from './measure.ts';

// Targets, the printed tables and bench/results/latest.json. Targets are reported (PASS/FAIL), never
// turned into an exit code: a benchmark on a shared machine informs, it does not gate.

export type CaseResult = {
  bench: BenchCase;
  /** Summed over the case's measured runs: req/s is all requests over all measured seconds; p50/p99 the median over rounds. */
  load: LoadResult | null;
  /** req/s of each round (side-by-side reads), or of the single run. */
  roundReqPerSec: number[];
  /** The server's CPU per request in each round, as `roundReqPerSec` (null when it could not be read). */
  roundCpuMsPerRequest: (number | null)[];
  /** Per request: the gateway's counted in-process (exact); the peer's and the baseline's averaged over the load. */
  statements: number | null;
  /**
   * The server's own CPU time per request under this load (ms): steadier than req/s on a shared machine,
   * where autocannon and PostgreSQL take turns on the same cores.
   */
  cpuMsPerRequest: number | null;
  /** CPU time of the server's database backends per request (ms; bench/db-cpu.ts). */
  dbCpuMsPerRequest: number | null;
  /** The server's peak resident set once the case was done (MB): which case raised it. */
  peakRssMb: number | null;
  /** Wrong answers, failed requests, a capped run: the numbers of such a case are not to be trusted. */
  problems: string[];
};

export type Check = { target: string; pass: boolean; actual: string };

const FINISH_LESSON = /^REST finish_lesson/;
const MAX_PEAK_RSS_MB = 250;

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The peer and the baseline a case is compared with (side-by-side reads only). */
function companions(result: CaseResult, results: CaseResult[]) {
  const { read, peerRead } = result.bench;
  if (read === undefined || result.bench.server === 'baseline') return { peer: undefined, baseline: undefined };
  return {
    peer:
      result.bench.server === 'gateway' ? results.find((r) => r.bench.server === 'peer' && r.bench.read === (peerRead ?? read)) : undefined,
    baseline: results.find((r) => r.bench.server === 'baseline' && r.bench.read === read),
  };
}

const ratio = (mine: number | null | undefined, theirs: number | null | undefined) =>
  mine === null || mine === undefined || !theirs ? null : round(mine / theirs, 2);

/** The ratio in each round (the two were measured seconds apart, under the same machine load), smallest to largest. */
const roundRatios = (mine: CaseResult, theirs: CaseResult | undefined) =>
  theirs
    ? mine.roundReqPerSec
        .map((value, i) => ratio(value, theirs.roundReqPerSec[i]))
        .filter((value): value is number => value !== null)
        .sort((a, b) => a - b)
    : [];

/** A JWT case's CPU per request over its own-token case's, in each round, smallest to largest. */
const roundCpuRatios = (mine: CaseResult, theirs: CaseResult | undefined) =>
  theirs
    ? mine.roundCpuMsPerRequest
        .map((value, i) => ratio(value, theirs.roundCpuMsPerRequest[i]))
        .filter((value): value is number => value !== null)
        .sort((a, b) => a - b)
    : [];

function ratios(result: CaseResult, results: CaseResult[]) {
  const { peer, baseline } = companions(result, results);
  const { ownTokenCase } = result.bench;
  const ownToken = ownTokenCase === undefined ? undefined : results.find((r) => r.bench.name === ownTokenCase);
  return {
    peer,
    baseline,
    ownToken,
    cpuToOwnToken: ratio(result.cpuMsPerRequest, ownToken?.cpuMsPerRequest),
    cpuToOwnTokenByRound: roundCpuRatios(result, ownToken),
    toPeer: ratio(result.load?.reqPerSec, peer?.load?.reqPerSec),
    toPeerByRound: roundRatios(result, peer),
    toBaseline: ratio(result.load?.reqPerSec, baseline?.load?.reqPerSec),
    dbCpuToPeer: ratio(result.dbCpuMsPerRequest, peer?.dbCpuMsPerRequest),
  };
}

/** Each case's own limits, then the targets that span cases. */
export function checkTargets(results: CaseResult[], peakRssMb: number | null): Check[] {
  const checks: Check[] = [];
  for (const result of results) {
    const { name, limits } = result.bench;
    const { peer, baseline, ownToken, toPeer, toBaseline, dbCpuToPeer, cpuToOwnToken, cpuToOwnTokenByRound } = ratios(result, results);
    // Failed requests (e.g. 429s) make a case look fast, another data set makes it look anything: such
    // numbers, the case's own or those it is compared with, cannot pass a target.
    const trusted = (...others: (CaseResult | undefined)[]) => [result, ...others].every((r) => r && r.problems.length === 0 && r.load);
    const note = (ok: boolean) => (ok ? '' : ', not trusted');
    // Without a peer (embedded PGlite: PostGraphile needs a server) there is nothing to compare with.
    if (limits.minPeerRatio !== undefined && peer) {
      const ok = trusted(peer);
      checks.push({
        target: `${name}: ≥ ${limits.minPeerRatio} × the peer's req/s`,
        pass: ok && toPeer !== null && toPeer >= limits.minPeerRatio,
        actual: `${toPeer ?? 'n/a'} ×${note(ok)}`,
      });
    }
    if (limits.maxPeerDbCpuRatio !== undefined && peer) {
      const ok = trusted(peer);
      checks.push({
        target: `${name}: database CPU per request ≤ ${limits.maxPeerDbCpuRatio} × the peer's`,
        pass: ok && dbCpuToPeer !== null && dbCpuToPeer <= limits.maxPeerDbCpuRatio,
        actual: `${dbCpuToPeer ?? 'n/a'} ×${note(ok)}`,
      });
    }
    if (limits.minBaselineRatio !== undefined) {
      const ok = trusted(baseline);
      checks.push({
        target: `${name}: ≥ ${limits.minBaselineRatio * 100}% of the baseline's req/s`,
        pass: ok && toBaseline !== null && toBaseline >= limits.minBaselineRatio,
        actual: `${toBaseline === null ? 'n/a' : `${round(toBaseline * 100, 0)}%`}${note(ok)}`,
      });
    }
    if (limits.maxOwnTokenCpuRatio !== undefined) {
      const ok = trusted(ownToken);
      const spread =
        cpuToOwnTokenByRound.length > 1 ? `, rounds ${cpuToOwnTokenByRound[0]!.toFixed(2)}–${cpuToOwnTokenByRound.at(-1)!.toFixed(2)}` : '';
      checks.push({
        target: `${name}: CPU per request ≤ ${limits.maxOwnTokenCpuRatio.toFixed(2)} × the gateway token's ("${result.bench.ownTokenCase}")`,
        pass: ok && cpuToOwnToken !== null && cpuToOwnToken <= limits.maxOwnTokenCpuRatio,
        actual: `${cpuToOwnToken === null ? 'n/a' : cpuToOwnToken.toFixed(2)} ×${spread}${note(ok)}`,
      });
    }
    if (limits.maxStatements !== undefined)
      checks.push({
        target: `${name}: ≤ ${limits.maxStatements} statements`,
        pass: result.statements !== null && result.statements <= limits.maxStatements,
        actual: String(result.statements ?? 'n/a'),
      });
    if (limits.maxP50Ms !== undefined) {
      const ok = trusted();
      checks.push({
        target: `${name}: p50 ≤ ${limits.maxP50Ms} ms`,
        pass: ok && result.load!.p50Ms <= limits.maxP50Ms,
        actual: `${result.load ? `${result.load.p50Ms} ms` : 'n/a'}${note(ok)}`,
      });
    }
  }
  const finishCounts = results.filter((r) => FINISH_LESSON.test(r.bench.name)).map((r) => r.statements);
  if (finishCounts.length > 1)
    checks.push({
      target: 'finish_lesson: same statements for every number of results',
      pass: finishCounts.every((count) => count !== null && count === finishCounts[0]),
      actual: finishCounts.join(' / '),
    });
  checks.push({
    target: `gateway peak RSS ≤ ${MAX_PEAK_RSS_MB} MB`,
    pass: peakRssMb !== null && peakRssMb <= MAX_PEAK_RSS_MB,
    actual: peakRssMb === null ? 'n/a' : `${peakRssMb} MB`,
  });
  return checks;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  return [line(rows[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

const fixed = (value: number | null | undefined, digits: number) => (value === null || value === undefined ? '-' : value.toFixed(digits));
/** Counted statements are whole; averaged ones (the peer's, the baseline's) get two decimals. */
const statementsText = (value: number | null) => (value === null ? '-' : Number.isInteger(value) ? String(value) : value.toFixed(2));

export function printReport(results: CaseResult[], checks: Check[], peakRssMb: number | null): void {
  const header = [
    'case',
    'conns',
    'requests',
    'req/s',
    'p50 ms',
    'p99 ms',
    'CPU ms/req',
    'DB CPU ms/req',
    'statements',
    '× peer',
    '(rounds)',
    '× baseline',
    'CPU × token',
    '(rounds)',
    'peak RSS MB',
  ];
  const row = (result: CaseResult) => {
    const { load } = result;
    const { toPeer, toPeerByRound, toBaseline, cpuToOwnToken, cpuToOwnTokenByRound } = ratios(result, results);
    const spreadOf = (byRound: number[]) => (byRound.length > 1 ? `${byRound[0]!.toFixed(2)}–${byRound.at(-1)!.toFixed(2)}` : '');
    return [
      result.problems.length > 0 ? `${result.bench.name} (!)` : result.bench.name,
      String(result.bench.connections),
      load ? String(load.requests) : '-',
      load ? round(load.reqPerSec).toFixed(1) : '-',
      load ? String(load.p50Ms) : '-',
      load ? String(load.p99Ms) : '-',
      fixed(result.cpuMsPerRequest, 3),
      fixed(result.dbCpuMsPerRequest, 3),
      statementsText(result.statements),
      fixed(toPeer, 2),
      spreadOf(toPeerByRound),
      fixed(toBaseline, 2),
      fixed(cpuToOwnToken, 2),
      spreadOf(cpuToOwnTokenByRound),
      result.peakRssMb === null ? '-' : String(result.peakRssMb),
    ];
  };
  const sideBySide = results.filter((r) => r.bench.read !== undefined);
  const reads = [...new Set(sideBySide.map((r) => r.bench.read!))];
  const out: string[] = [];
  if (reads.length > 0) {
    const rounds = Math.max(...sideBySide.map((r) => r.roundReqPerSec.length));
    out.push(
      `Side by side (${rounds} interleaved rounds; × peer and × baseline are req/s ratios within the read, CPU × token a JWT case's CPU per request over the same read's with the gateway token; (rounds) the smallest and largest round's ratio):`,
    );
    const rows = [header];
    for (const read of reads) {
      if (rows.length > 1) rows.push(header.map(() => ''));
      rows.push(...sideBySide.filter((r) => r.bench.read === read).map(row));
    }
    out.push(table(rows), '');
  }
  const others = results.filter((r) => r.bench.read === undefined);
  if (others.length > 0) out.push('The gateway alone:', table([header, ...others.map(row)]), '');
  out.push(`peak RSS of the gateway: ${peakRssMb ?? 'n/a'} MB`, '', 'Targets:');
  for (const check of checks) out.push(`  ${check.pass ? 'PASS' : 'FAIL'}  ${check.target}  (${check.actual})`);
  const problems = results.flatMap((r) => r.problems.map((problem) => `  ${r.bench.name}: ${problem}`));
  if (problems.length > 0) out.push('', 'Problems (numbers marked (!) are not to be trusted):', ...problems);
  out.push(
    '',
    `load average (1, 5, 15 min): ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  process.stdout.write(`\n${out.join('\n')}\n`);
}

export async function writeResults(
  file: string,
  results: CaseResult[],
  checks: Check[],
  peakRssMb: number | null,
  extra: Record<string, unknown>,
): Promise<void> {
  const cpu = cpus();
  const report = {
    machine: {
      cpus: cpu.length,
      model: cpu[0]?.model ?? 'unknown',
      memGb: round(totalmem() / 1024 ** 3),
      node: process.version,
      date: new Date().toISOString(),
      // Other work on the machine skews every number: the load average says how busy it was.
      loadAvg1m: round(loadavg()[0]!, 2),
      loadAvg: loadavg().map((value) => round(value, 2)),
    },
    cases: results.map((r) => {
      const { toPeer, toPeerByRound, toBaseline, dbCpuToPeer, cpuToOwnToken, cpuToOwnTokenByRound } = ratios(r, results);
      const milli = (value: number | null) => (value === null ? null : round(value, 3));
      return {
        name: r.bench.name,
        server: r.bench.server,
        read: r.bench.read ?? null,
        reqPerSec: r.load ? round(r.load.reqPerSec) : null,
        roundReqPerSec: r.roundReqPerSec.map((value) => round(value)),
        roundCpuMsPerRequest: r.roundCpuMsPerRequest.map((value) => (value === null ? null : round(value, 3))),
        p50Ms: r.load?.p50Ms ?? null,
        p99Ms: r.load?.p99Ms ?? null,
        meanMs: r.load ? round(r.load.meanMs, 2) : null,
        statements: r.statements === null ? null : round(r.statements, 2),
        cpuMsPerRequest: milli(r.cpuMsPerRequest),
        dbCpuMsPerRequest: milli(r.dbCpuMsPerRequest),
        ratioToPeer: toPeer,
        ratioToPeerByRound: toPeerByRound,
        ratioToBaseline: toBaseline,
        dbCpuRatioToPeer: dbCpuToPeer,
        ownTokenCase: r.bench.ownTokenCase ?? null,
        cpuRatioToOwnToken: cpuToOwnToken,
        cpuRatioToOwnTokenByRound: cpuToOwnTokenByRound,
        connections: r.bench.connections,
        requests: r.load?.requests ?? 0,
        peakRssMbAfter: r.peakRssMb,
        problems: r.problems,
      };
    }),
    peakRssMb,
    targets: checks,
    ...extra,
  };
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
}
