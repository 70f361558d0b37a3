import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/client.ts';
import { startCommand } from '../scripts/start-command.mjs';
import { buildCases, type BenchCase } from './cases.ts';
import { loadDataset } from './dataset.ts';
import { backendCpuBetween, type BackendMonitor } from './db-cpu.ts';
import { preflight, runLoad, warmUp } from './measure.ts';
import { nodeForServers } from './node-runtime.ts';
import { freePort, startServer, type Server } from './processes.ts';

// Several gateways on one data set, each a target, measured in alternating rounds: what the runs of their own
// behind PgBouncer (bench/pooler.ts) and with a read replica (bench/replicas.ts) share. Each says how its
// targets reach the database, what it starts beside them and whose CPU counts besides the gateway's.

const root = fileURLToPath(new URL('..', import.meta.url));
const GATEWAY_ENV = { NODE_ENV: 'production', LOG_LEVEL: 'warn', DEMO_DATA: '0', RATE_LIMIT_MAX: '1000000' };

export type Log = (message: string) => void;

/** A figure of the report: its field in the JSON rows and its column in the table. */
export type Column = { field: string; heading: string };

/** A process (or a set of database backends) whose CPU a target's requests cost besides its gateway's. */
export type CpuSource<Target> = Column & {
  /** Whether it serves this target; where not, the row holds null and the table '–'. */
  serves(target: Target): boolean;
  /** Reads its CPU now; the function returned says how many ms it used since. */
  startCounting(target: Target): Promise<() => Promise<number>>;
};

/** What one side-by-side run needs to know of its own. */
export type SideBySideBench<Target extends { name: string }> = {
  /** `pooler`: the flag `--pooler`, the log prefix `[bench pooler]`, bench/results/pooler-latest.json. */
  name: string;
  /** The first is what the others are compared with. */
  targets: readonly Target[];
  /** The ratio of each target's req/s to the first target's. */
  ratioToFirst: Column;
  /** The sum of the gateway's CPU and every source's, where the bench reports it. */
  totalCpu?: Column;
  /** Creates the fresh database (and whatever it stands on), handing `cleanUp` what must be undone at the end. */
  createDatabase(setUp: SetUp): Promise<BenchDatabase<Target>>;
};

export type SetUp = { log: Log; cleanUp(step: () => Promise<unknown>): void };

export type BenchDatabase<Target> = {
  url: string;
  /** Once the data set is loaded there: starts what stands beside the gateways. */
  prepareTargets(): Promise<PreparedTargets<Target>>;
};

export type PreparedTargets<Target> = {
  /** The database variables of the target's gateway (DATABASE_URL and the like). */
  databaseEnv(target: Target): Record<string, string>;
  cpuSources: CpuSource<Target>[];
};

type RunOptions = { quick: boolean; seconds: number; rounds: number };

type Tally = { requests: number; sent: number; seconds: number; failures: number; gatewayMs: number; sourceMs: number[]; p50s: number[] };

const benchLog =
  (name: string): Log =>
  (message) =>
    process.stderr.write(`[bench ${name}] ${message}\n`);

/** CPU of the database backends that name themselves `applicationName(target)` (bench/db-cpu.ts). */
export const backendCpu =
  <Target>(monitor: BackendMonitor, applicationName: (target: Target) => string): CpuSource<Target>['startCounting'] =>
  async (target) => {
    const before = await monitor.sample(applicationName(target));
    return async () => {
      const after = await monitor.sample(applicationName(target));
      return before && after ? backendCpuBetween(before, after) : 0;
    };
  };

export async function runSideBySide<Target extends { name: string }>(bench: SideBySideBench<Target>, argv: string[]): Promise<void> {
  const log = benchLog(bench.name);
  const options = parseRunOptions(argv, bench.name);
  const node = nodeForServers(root, log);
  const undo: (() => Promise<unknown>)[] = [];
  const setUp: SetUp = { log, cleanUp: (step) => undo.push(step) };
  try {
    const database = await bench.createDatabase(setUp);
    const cases = await loadReadCases(database.url, options.quick, log);
    const prepared = await database.prepareTargets();
    const servers = await startGateways(node.path, bench.targets, prepared.databaseEnv, setUp.cleanUp);
    const tallies = await measure(cases, servers, prepared.cpuSources, options, log);
    await report(bench, cases, tallies, prepared.cpuSources, { ...options, nodeVersion: node.version }, log);
  } finally {
    for (const step of undo.reverse()) await step().catch((error: Error) => log(`cleanup: ${error.message}`));
  }
}

/** `--quick`, `--seconds S`, `--rounds N` beside the bench's own flag. */
function parseRunOptions(argv: string[], name: string): RunOptions {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== `--${name}`),
    options: {
      quick: { type: 'boolean', default: false },
      seconds: { type: 'string' },
      rounds: { type: 'string' },
    },
  });
  const quick = values.quick;
  const seconds = Number(values.seconds ?? (quick ? 1.5 : 10));
  const rounds = Number(values.rounds ?? (quick ? 2 : 5));
  if (!(seconds > 0) || !(rounds >= 1)) throw new Error('--seconds and --rounds must be positive numbers');
  return { seconds, rounds, quick };
}

/** The data set, and the side-by-side reads with the gateway's own token (no identity provider: no JWT cases). */
async function loadReadCases(url: string, quick: boolean, log: Log): Promise<BenchCase[]> {
  const database = await openDatabase({ databaseUrl: url, dataDir: '' });
  try {
    const sessions = 30;
    const dataset = await loadDataset(
      database,
      { activities: quick ? 1_000 : 5_000, classroomActivities: quick ? 20 : 200, sessions, finishLessonPools: {} },
      (step) => log(`loaded ${step}`),
    );
    return buildCases(dataset, { sessions, finishLessonSizes: [], teacherJwt: '' }).filter(
      (c) => c.server === 'gateway' && c.read !== undefined && c.ownTokenCase === undefined,
    );
  } finally {
    await database.close();
  }
}

/** One gateway a target, as `npm start` runs them: its build first, then its node flags and script. */
async function startGateways<Target extends { name: string }>(
  nodePath: string,
  targets: readonly Target[],
  databaseEnv: (target: Target) => Record<string, string>,
  cleanUp: SetUp['cleanUp'],
): Promise<Map<Target, Server>> {
  const start = startCommand(root);
  for (const [command, ...args] of start.steps)
    execFileSync(command === 'node' ? nodePath : command!, args, { cwd: root, stdio: 'inherit' });
  const { PLAYGROUND: _playground, ...env } = process.env;
  const servers = new Map<Target, Server>();
  for (const target of targets) {
    const port = await freePort();
    const server = await startServer({
      name: target.name,
      node: nodePath,
      cwd: root,
      args: start.nodeArgs,
      env: { ...env, ...GATEWAY_ENV, ...databaseEnv(target), PORT: String(port), HOST: '127.0.0.1' },
      port,
      ready: { path: '/readyz' },
    });
    servers.set(target, server);
    cleanUp(() => server.stop(3_000));
  }
  return servers;
}

const tallyKey = (benchCase: BenchCase, target: { name: string }) => `${benchCase.name}|${target.name}`;

/** Interleaved rounds: each read on every target back to back, the order rotating; after a warm-up of all. */
async function measure<Target extends { name: string }>(
  cases: BenchCase[],
  servers: Map<Target, Server>,
  cpuSources: CpuSource<Target>[],
  { seconds, rounds, quick }: RunOptions,
  log: Log,
): Promise<Map<string, Tally>> {
  for (const benchCase of cases)
    for (const [target, server] of servers) {
      const wrong = await preflight(benchCase, server.url);
      if (wrong) throw new Error(`${benchCase.name} on ${target.name}: ${wrong}`);
      await warmUp(benchCase, server.url, quick ? 0.3 : 1);
    }
  const targets = [...servers.keys()];
  const tallies = new Map<string, Tally>();
  const slice = seconds / rounds;
  for (let round = 0; round < rounds; round += 1)
    for (const benchCase of cases)
      for (let k = 0; k < targets.length; k += 1) {
        const target = targets[(k + round) % targets.length]!;
        const server = servers.get(target)!;
        log(`round ${round + 1}/${rounds}: ${benchCase.name}, ${target.name} …`);
        await warmUp(benchCase, server.url, quick ? 0.3 : 1);
        const gatewayBefore = server.cpuMs();
        const sourcesCounting: ((() => Promise<number>) | null)[] = [];
        for (const source of cpuSources) sourcesCounting.push(source.serves(target) ? await source.startCounting(target) : null);
        const load = await runLoad(benchCase, server.url, slice);
        await new Promise((resolve) => setTimeout(resolve, 150));
        const gatewayAfter = server.cpuMs();
        const tally = tallies.get(tallyKey(benchCase, target)) ?? newTally(cpuSources.length);
        tallies.set(tallyKey(benchCase, target), tally);
        tally.requests += load.requests;
        tally.sent += load.sent;
        tally.seconds += load.durationS;
        tally.failures += load.failures;
        tally.gatewayMs += (gatewayAfter ?? 0) - (gatewayBefore ?? 0);
        for (const [i, msSinceStart] of sourcesCounting.entries()) if (msSinceStart) tally.sourceMs[i]! += await msSinceStart();
        tally.p50s.push(load.p50Ms);
      }
  return tallies;
}

const newTally = (sources: number): Tally => ({
  requests: 0,
  sent: 0,
  seconds: 0,
  failures: 0,
  gatewayMs: 0,
  sourceMs: Array.from({ length: sources }, () => 0),
  p50s: [],
});

type Row = Record<string, string | number | null | undefined>;

/** Per read and target: req/s, its ratio to the first target, the median p50, CPU per request; the table, then the JSON. */
async function report<Target extends { name: string }>(
  bench: SideBySideBench<Target>,
  cases: BenchCase[],
  tallies: Map<string, Tally>,
  cpuSources: CpuSource<Target>[],
  run: RunOptions & { nodeVersion: string },
  log: Log,
): Promise<void> {
  const rows: Row[] = cases.flatMap((benchCase) => {
    const first = tallies.get(tallyKey(benchCase, bench.targets[0]!))!;
    return bench.targets.map((target) => {
      const t = tallies.get(tallyKey(benchCase, target))!;
      const perRequest = (ms: number) => (t.sent ? +(ms / t.sent).toFixed(3) : null);
      const reqPerSec = t.seconds ? t.requests / t.seconds : 0;
      const sourceFigures = cpuSources.map((source, i) => [source.field, source.serves(target) ? perRequest(t.sourceMs[i]!) : null]);
      const allMs = t.gatewayMs + t.sourceMs.reduce((sum, ms) => sum + ms, 0);
      return {
        read: benchCase.name,
        target: target.name,
        reqPerSec: Math.round(reqPerSec),
        [bench.ratioToFirst.field]: +(reqPerSec / (first.requests / first.seconds)).toFixed(2),
        p50Ms: [...t.p50s].sort((a, b) => a - b)[Math.floor((t.p50s.length - 1) / 2)],
        gatewayCpuMsPerRequest: perRequest(t.gatewayMs),
        ...Object.fromEntries(sourceFigures),
        ...(bench.totalCpu ? { [bench.totalCpu.field]: perRequest(allMs) } : {}),
        failures: t.failures,
      };
    });
  });
  const machine = { cores: cpus().length, loadAvg: loadavg().map((value) => +value.toFixed(2)) };
  const cpuColumns = [...cpuSources, ...(bench.totalCpu ? [bench.totalCpu] : [])];
  printTable(rows, bench.ratioToFirst, cpuColumns, new Set(cpuSources.map((source) => source.field)));
  process.stdout.write(
    `\nload average at the end: ${machine.loadAvg.join(', ')} (${machine.cores} cores); servers on Node ${run.nodeVersion}\n`,
  );
  const resultsFile = join(root, 'bench', 'results', `${bench.name}-latest.json`);
  await mkdir(dirname(resultsFile), { recursive: true });
  await writeFile(resultsFile, `${JSON.stringify({ at: new Date().toISOString(), machine, ...run, rows }, null, 2)}\n`);
  log(`wrote ${resultsFile}`);
}

/** The Markdown table, one column a figure; '–' where a CPU source does not serve the target. */
function printTable(rows: Row[], ratio: Column, cpuColumns: Column[], dashWhereNull: Set<string>): void {
  const columns: Column[] = [
    { field: 'read', heading: 'read' },
    { field: 'target', heading: 'target' },
    { field: 'reqPerSec', heading: 'req/s' },
    ratio,
    { field: 'p50Ms', heading: 'p50 ms' },
    { field: 'gatewayCpuMsPerRequest', heading: 'gateway CPU ms/req' },
    ...cpuColumns,
    { field: 'failures', heading: 'failed' },
  ];
  process.stdout.write(`\n| ${columns.map((c) => c.heading).join(' | ')} |\n|${columns.map(() => '---|').join('')}\n`);
  const cell = (row: Row, field: string) => (dashWhereNull.has(field) ? (row[field] ?? '–') : String(row[field]));
  for (const row of rows) process.stdout.write(`| ${columns.map((c) => cell(row, c.field)).join(' | ')} |\n`);
}
