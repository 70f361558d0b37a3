import { execFileSync } from 'node:child_process';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { buildCases, type BenchCase } from './cases.ts';
import { loadDataset, type DatasetOptions } from './dataset.ts';
import { createPgliteFolder, createPostgresDatabase, DEFAULT_ADMIN_URL, type FreshDatabase } from './fresh-database.ts';
import { countStatements, preflight, runLoad, type StatementCount } from './measure.ts';
import { freePort, startServer, type Server } from './processes.ts';
import { summarizeProfiles } from './profile.ts';
import { checkTargets, printReport, writeResults, type CaseResult } from './report.ts';
import { runSubscriptions, wantsSubscriptions } from './subscriptions.ts';
import { startCommand } from '../scripts/start-command.mjs';

// npm run bench [-- --quick] [--pglite] [--profile] [--activities N] [--classroom-activities N]
//                             [--sessions N] [--seconds S] [--cases REGEX]
// One run: a fresh database with a generated data set, the gateway and a baseline server as child
// processes, every case measured, a table printed and bench/results/latest.json written. The database
// and the children are removed at the end, also when the run fails or is interrupted.

const root = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_FILE = join(root, 'bench', 'results', 'latest.json');
const FINISH_LESSON_SIZES = [10, 100, 1_000];
/**
 * Production settings, except the per-caller rate limit: raised to its maximum so that the benchmark
 * measures capacity rather than the limiter's 429s (the limiter still runs on every request).
 */
const GATEWAY_ENV = { NODE_ENV: 'production', LOG_LEVEL: 'warn', DEMO_DATA: '0', RATE_LIMIT_MAX: '1000000' };

type Options = DatasetOptions & {
  quick: boolean;
  pglite: boolean;
  profile: boolean;
  seconds: number;
  warmupSeconds: number;
  /** Only the cases whose name matches (the baseline always runs: the ratios need it). */
  only: RegExp | undefined;
};

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      pglite: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      activities: { type: 'string' },
      'classroom-activities': { type: 'string' },
      sessions: { type: 'string' },
      seconds: { type: 'string' },
      cases: { type: 'string' },
    },
  });
  const count = (name: string, value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isFinite(n) || n < 1) throw new Error(`--${name} must be a positive number; got ${JSON.stringify(value)}`);
    return n;
  };
  const quick = values.quick;
  const sessions = Math.floor(count('sessions', values.sessions, 30));
  // Session uids and ids are derived from (lesson, index): more than this would make them collide.
  if (sessions > 1_000) throw new Error(`--sessions must be at most 1000; got ${sessions}`);
  return {
    quick,
    pglite: values.pglite,
    profile: values.profile,
    // The quick run must finish within a minute, data set included: importData sends a statement per record.
    activities: Math.floor(count('activities', values.activities, quick ? 1_000 : 5_000)),
    classroomActivities: Math.floor(count('classroom-activities', values['classroom-activities'], quick ? 20 : 200)),
    sessions,
    // Each finish_lesson request needs a lesson of its own: enough for about `seconds` at the expected pace.
    finishLessonPools: quick ? { 10: 30, 100: 20, 1000: 12 } : { 10: 400, 100: 300, 1000: 150 },
    seconds: count('seconds', values.seconds, quick ? 1.5 : 10),
    warmupSeconds: quick ? 0.3 : 2,
    only: values.cases === undefined ? undefined : new RegExp(values.cases, 'i'),
  };
}

const started = Date.now();
const log = (message: string) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${message}\n`);

/** Undo steps, run last-in first-out, each whatever the others do. */
function cleanupStack() {
  const steps: (() => Promise<unknown>)[] = [];
  let ran: Promise<void> | undefined;
  return {
    add: (step: () => Promise<unknown>) => void steps.push(step),
    run: () =>
      (ran ??= (async () => {
        for (const step of steps.reverse()) await step().catch((error: Error) => log(`cleanup: ${error.message}`));
      })()),
  };
}

/** Statements per request, counted in this process (the children cannot report them) on the data set just loaded. */
async function probeStatements(database: Database, fresh: FreshDatabase, cases: BenchCase[]): Promise<Map<BenchCase, StatementCount>> {
  const config = loadConfig({
    ...GATEWAY_ENV,
    LOG_LEVEL: 'silent',
    DATABASE_URL: fresh.kind === 'postgresql' ? fresh.url : '',
    DATA_DIR: fresh.kind === 'pglite' ? fresh.dataDir : 'memory://',
  });
  const app = await buildApp({ config, database });
  try {
    const counts = new Map<BenchCase, StatementCount>();
    for (const benchCase of cases.filter((c) => c.server === 'gateway'))
      counts.set(benchCase, await countStatements(app, database, benchCase));
    return counts;
  } finally {
    await app.close();
  }
}

async function startServers(fresh: FreshDatabase, profileDir: string | undefined) {
  const database = fresh.kind === 'postgresql' ? { DATABASE_URL: fresh.url } : { DATABASE_URL: '', DATA_DIR: fresh.dataDir };
  const { PLAYGROUND: _playground, ...env } = process.env;
  const baselinePort = await freePort();
  const baseline = await startServer({
    name: 'baseline',
    cwd: root,
    args: ['--import', 'tsx', 'bench/baseline.ts'],
    env: {
      ...env,
      PORT: String(baselinePort),
      ...(fresh.kind === 'postgresql' ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: fresh.baselineDataDir }),
    },
    port: baselinePort,
    readyPath: '/healthz',
  });
  // As `npm start` runs it: its build first, then its node flags and script.
  const start = startCommand(root);
  for (const [command, ...args] of start.steps)
    execFileSync(command === 'node' ? process.execPath : command!, args, { cwd: root, stdio: 'inherit' });
  const startScript = start.nodeArgs.at(-1)!;
  const startFlags = start.nodeArgs.slice(0, -1);
  const gatewayPort = await freePort();
  const gateway = await startServer({
    name: 'gateway',
    cwd: root,
    args: [...startFlags, ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []), startScript],
    env: { ...env, ...database, ...GATEWAY_ENV, PORT: String(gatewayPort), HOST: '127.0.0.1' },
    port: gatewayPort,
    readyPath: '/readyz',
  }).catch(async (error) => {
    await baseline.stop();
    throw error;
  });
  return { baseline, gateway };
}

async function measureCases(
  cases: BenchCase[],
  servers: Record<BenchCase['server'], Server>,
  statements: Map<BenchCase, StatementCount>,
  options: Options,
) {
  const results: CaseResult[] = [];
  for (const benchCase of cases) {
    const probe = benchCase.server === 'baseline' ? { statements: 1 } : statements.get(benchCase)!;
    const result: CaseResult = {
      bench: benchCase,
      load: null,
      statements: 'statements' in probe ? probe.statements : null,
      cpuMsPerRequest: null,
      peakRssMb: null,
      problems: [],
    };
    results.push(result);
    if ('problem' in probe) result.problems.push(`in-process request: ${probe.problem}`);
    const baseUrl = servers[benchCase.server].url;
    const wrong = benchCase.prepared === undefined ? await preflight(benchCase, baseUrl) : null;
    if (wrong) {
      result.problems.push(`HTTP request: ${wrong}`);
      log(`${benchCase.name}: skipped, ${wrong}`);
      continue;
    }
    log(`${benchCase.name} …`);
    const cpuBefore = servers[benchCase.server].cpuMs();
    result.load = await runLoad(benchCase, baseUrl, options);
    const cpuAfter = servers[benchCase.server].cpuMs();
    if (cpuBefore !== null && cpuAfter !== null && result.load.requests > 0)
      result.cpuMsPerRequest = Math.round(((cpuAfter - cpuBefore) / result.load.requests) * 1000) / 1000;
    result.peakRssMb = servers[benchCase.server].peakRssMb();
    if (result.load.failures > 0)
      result.problems.push(`${result.load.failures} of ${result.load.requests} requests failed (non-2xx, error or timeout)`);
    if (result.load.cappedAfterS)
      result.problems.push(`stopped by the ${result.load.cappedAfterS} s cap before all its requests were sent`);
  }
  return results;
}

/** The children, stopped with the run however it ends; on PostgreSQL they boot while the data loads. */
function launchServers(fresh: FreshDatabase, profileDir: string | undefined, cleanup: ReturnType<typeof cleanupStack>) {
  const launching = startServers(fresh, profileDir);
  launching.catch(() => {}); // reported where it is awaited
  cleanup.add(async () => {
    const servers = await launching.catch(() => null);
    await Promise.all([servers?.gateway.stop(), servers?.baseline.stop()]);
  });
  return launching;
}

async function main(): Promise<void> {
  // `--subscriptions` (or `--cases subscriptions`): live lessons under load, a run of its own (bench/subscriptions.ts).
  if (wantsSubscriptions(process.argv.slice(2))) return runSubscriptions(process.argv.slice(2));
  const options = parseOptions(process.argv.slice(2));
  const cleanup = cleanupStack();
  const interrupted = () => void cleanup.run().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const fresh = options.pglite ? await createPgliteFolder() : await createPostgresDatabase(process.env.DATABASE_URL || DEFAULT_ADMIN_URL);
    cleanup.add(() => fresh.remove());
    log(`database: ${fresh.describe}`);
    const profileDir = options.profile ? await mkdtemp(join(tmpdir(), 'lgw-bench-profile-')) : undefined;

    // Migrated here, so the gateway finds nothing to migrate when it starts.
    const database = await openDatabase({
      databaseUrl: fresh.kind === 'postgresql' ? fresh.url : undefined,
      dataDir: fresh.kind === 'pglite' ? fresh.dataDir : '',
    });
    // A PGlite folder admits one process at a time: its servers start once this process has let go.
    let launching = fresh.kind === 'postgresql' ? launchServers(fresh, profileDir, cleanup) : undefined;
    let cases: BenchCase[];
    let statements: Map<BenchCase, StatementCount>;
    try {
      const dataset = await loadDataset(database, options, (step) => log(`loaded ${step}`));
      cases = buildCases(dataset, { sessions: options.sessions, finishLessonSizes: FINISH_LESSON_SIZES }).filter(
        (c) => c.server === 'baseline' || !options.only || options.only.test(c.name),
      );
      statements = await probeStatements(database, fresh, cases);
      log('statements per request counted in-process');
    } finally {
      await database.close();
    }
    if (fresh.kind === 'pglite') {
      await cp(fresh.dataDir, fresh.baselineDataDir, { recursive: true });
      launching = launchServers(fresh, profileDir, cleanup);
    }
    const { baseline, gateway } = await launching!;
    const readyRssMb = gateway.rssMb();
    log(
      `gateway ${gateway.url} (pid ${gateway.child.pid}, ${readyRssMb} MB resident), baseline ${baseline.url} (pid ${baseline.child.pid}, ${baseline.rssMb()} MB)`,
    );

    const results = await measureCases(cases, { baseline, gateway }, statements, options);
    const peakRssMb = gateway.peakRssMb();
    const baselinePeakRssMb = baseline.peakRssMb();
    // Stopped before the report: a profiled gateway writes its profile as it exits, so it gets time.
    const [killed] = await Promise.all([gateway.stop(profileDir ? 60_000 : 3_000), baseline.stop(3_000)]);
    log(killed ? 'gateway did not exit within 3 s of SIGTERM: killed' : 'servers stopped');

    const checks = checkTargets(results, peakRssMb);
    printReport(results, checks, peakRssMb);
    process.stdout.write(`gateway resident when ready: ${readyRssMb} MB; baseline peak: ${baselinePeakRssMb} MB\n`);
    await writeResults(RESULTS_FILE, results, checks, peakRssMb, {
      memory: { gatewayReadyRssMb: readyRssMb, baselinePeakRssMb },
      options: {
        quick: options.quick,
        database: fresh.kind,
        activities: options.activities,
        classroomActivities: options.classroomActivities,
        sessions: options.sessions,
        secondsPerCase: options.seconds,
      },
    });
    log(`wrote ${RESULTS_FILE}`);
    if (profileDir) process.stdout.write(`\n${await summarizeProfiles(profileDir, root)}\n(profile files kept in ${profileDir})\n`);
  } finally {
    await cleanup.run();
    log('done');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
