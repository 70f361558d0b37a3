import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { cpus, loadavg, totalmem } from 'node:os';
import type { BenchCase } from './cases.ts';
import type { LoadResult } from './measure.ts';

// Targets, the printed table and bench/results/latest.json. Targets are reported (PASS/FAIL), never
// turned into an exit code: a benchmark on a shared machine informs, it does not gate.

export type CaseResult = {
  bench: BenchCase;
  load: LoadResult | null;
  statements: number | null;
  /**
   * The server's own CPU time per request under this load (ms): steadier than req/s on a shared machine,
   * where autocannon and PostgreSQL take turns on the same cores.
   */
  cpuMsPerRequest: number | null;
  /** The server's peak resident set once the case was done (MB): which case raised it. */
  peakRssMb: number | null;
  /** Wrong answers, failed requests, a capped run: the numbers of such a case are not to be trusted. */
  problems: string[];
};

export type Check = { target: string; pass: boolean; actual: string };

const FINISH_LESSON = /^REST finish_lesson/;
const MAX_PEAK_RSS_MB = 250;

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function ratioToBaseline(result: CaseResult, baseline: CaseResult | undefined): number | null {
  const base = baseline?.load?.reqPerSec;
  return result.load && base ? round(result.load.reqPerSec / base, 2) : null;
}

/** Each case's own limits, then the targets that span cases. */
export function checkTargets(results: CaseResult[], peakRssMb: number | null): Check[] {
  const baseline = results.find((r) => r.bench.server === 'baseline');
  const checks: Check[] = [];
  for (const result of results) {
    const { name, limits } = result.bench;
    const ratio = ratioToBaseline(result, baseline);
    // Failed requests (e.g. 429s) make a case look fast: its load numbers cannot pass a target.
    const trusted = result.problems.length === 0;
    const load = trusted ? result.load : null;
    const untrusted = trusted ? '' : ', not trusted';
    if (limits.minBaselineRatio !== undefined)
      checks.push({
        target: `${name}: ≥ ${limits.minBaselineRatio * 100}% of baseline req/s`,
        pass: !!load && ratio !== null && ratio >= limits.minBaselineRatio,
        actual: `${ratio === null ? 'n/a' : `${round(ratio * 100, 0)}%`}${untrusted}`,
      });
    if (limits.maxStatements !== undefined)
      checks.push({
        target: `${name}: ≤ ${limits.maxStatements} statements`,
        pass: result.statements !== null && result.statements <= limits.maxStatements,
        actual: String(result.statements ?? 'n/a'),
      });
    if (limits.maxP50Ms !== undefined)
      checks.push({
        target: `${name}: p50 ≤ ${limits.maxP50Ms} ms`,
        pass: !!load && load.p50Ms <= limits.maxP50Ms,
        actual: `${result.load ? `${result.load.p50Ms} ms` : 'n/a'}${untrusted}`,
      });
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

export function printReport(results: CaseResult[], checks: Check[], peakRssMb: number | null): void {
  const baseline = results.find((r) => r.bench.server === 'baseline');
  const rows = [['case', 'conns', 'requests', 'req/s', 'p50 ms', 'p99 ms', '× baseline', 'statements', 'CPU ms/req', 'peak RSS MB']];
  for (const result of results) {
    const { load } = result;
    rows.push([
      result.problems.length > 0 ? `${result.bench.name} (!)` : result.bench.name,
      String(result.bench.connections),
      load ? String(load.requests) : '-',
      load ? round(load.reqPerSec).toFixed(1) : '-',
      load ? String(load.p50Ms) : '-',
      load ? String(load.p99Ms) : '-',
      ratioToBaseline(result, baseline)?.toFixed(2) ?? '-',
      result.statements === null ? '-' : String(result.statements),
      result.cpuMsPerRequest === null ? '-' : result.cpuMsPerRequest.toFixed(3),
      result.peakRssMb === null ? '-' : String(result.peakRssMb),
    ]);
  }
  const out = [table(rows), `peak RSS of the gateway: ${peakRssMb ?? 'n/a'} MB`, '', 'Targets:'];
  for (const check of checks) out.push(`  ${check.pass ? 'PASS' : 'FAIL'}  ${check.target}  (${check.actual})`);
  const problems = results.flatMap((r) => r.problems.map((problem) => `  ${r.bench.name}: ${problem}`));
  if (problems.length > 0) out.push('', 'Problems (numbers marked (!) are not to be trusted):', ...problems);
  process.stdout.write(`\n${out.join('\n')}\n`);
}

export async function writeResults(
  file: string,
  results: CaseResult[],
  checks: Check[],
  peakRssMb: number | null,
  extra: Record<string, unknown>,
): Promise<void> {
  const baseline = results.find((r) => r.bench.server === 'baseline');
  const cpu = cpus();
  const numbers = (load: LoadResult | null) => ({
    reqPerSec: load ? round(load.reqPerSec) : null,
    p50Ms: load?.p50Ms ?? null,
    p99Ms: load?.p99Ms ?? null,
  });
  const report = {
    machine: {
      cpus: cpu.length,
      model: cpu[0]?.model ?? 'unknown',
      memGb: round(totalmem() / 1024 ** 3),
      node: process.version,
      date: new Date().toISOString(),
      // Other work on the machine skews every number: the load average says how busy it was.
      loadAvg1m: round(loadavg()[0]!, 2),
    },
    baseline: { ...numbers(baseline?.load ?? null), cpuMsPerRequest: baseline?.cpuMsPerRequest ?? null },
    cases: results
      .filter((r) => r.bench.server === 'gateway')
      .map((r) => ({
        name: r.bench.name,
        ...numbers(r.load),
        statements: r.statements,
        cpuMsPerRequest: r.cpuMsPerRequest,
        ratioToBaseline: ratioToBaseline(r, baseline),
        connections: r.bench.connections,
        requests: r.load?.requests ?? 0,
        peakRssMbAfter: r.peakRssMb,
        problems: r.problems,
      })),
    peakRssMb,
    targets: checks,
    ...extra,
  };
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
}
