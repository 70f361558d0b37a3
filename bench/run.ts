import { execFileSync } from 'node:child_process';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { buildCases, type BenchCase, type ServerName } from './cases.ts';
import { loadDataset, type DatasetOptions } from './dataset.ts';
import { APPLICATION_NAMES, backendCpuBetween, openBackendMonitor, withApplicationName, type BackendMonitor } from './db-cpu.ts';
import { createPgliteFolder, createPostgresDatabase, DEFAULT_ADMIN_URL, type FreshDatabase } from './fresh-database.ts';
import { startIdentityProvider, type IdentityProvider } from './identity-provider.ts';
import { countStatements, differentData, preflight, runLoad, warmUp, type StatementCount } from './measure.ts';
import { nodeForServers, type NodeRuntime } from './node-runtime.ts';
import { freePort, startServer, type Server } from './processes.ts';
import { summarizeProfiles } from './profile.ts';
import { checkTargets, printReport, writeResults, type CaseResult } from './report.ts';
import { runPooler, wantsPooler } from './pooler.ts';
import { runReplicas, wantsReplicas } from './replicas.ts';
import { runSubscriptions, wantsSubscriptions } from './subscriptions.ts';
import { startCommand } from '../scripts/start-command.mjs';

// npm run bench [-- --quick] [--pglite] [--profile] [--activities N] [--classroom-activities N]
//                             [--sessions N] [--seconds S] [--rounds N] [--cases REGEX]
// One run on a fresh database, every server a child process, all removed at the end: bench/README.md.

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
  /** Measured seconds per case, spread over the rounds for the side-by-side reads. */
  seconds: number;
  rounds: number;
  /** Before each case (each round of a side-by-side read): fills the pool, warms the JIT, not measured. */
  warmupSeconds: number;
  /** Only the cases whose name matches (with the peer and baseline of a matching side-by-side read). */
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
      rounds: { type: 'string' },
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
    // The quick run must finish within a minute or two, data set included: importData sends a statement per record.
    activities: Math.floor(count('activities', values.activities, quick ? 1_000 : 5_000)),
    classroomActivities: Math.floor(count('classroom-activities', values['classroom-activities'], quick ? 20 : 200)),
    sessions,
    // Each finish_lesson request needs a lesson of its own: enough for about `seconds` at the expected pace.
    finishLessonPools: quick ? { 10: 30, 100: 20, 1000: 12 } : { 10: 400, 100: 300, 1000: 150 },
    seconds: count('seconds', values.seconds, quick ? 1.5 : 10),
    rounds: Math.floor(count('rounds', values.rounds, quick ? 2 : 5)),
    warmupSeconds: quick ? 0.3 : 1,
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

/**
 * The cases to run: those matching --cases, the own-token case of each JWT case kept (its CPU is compared with
 * it), and the peer and baseline of each side-by-side read kept.
 */
function selectCases(cases: BenchCase[], options: Options): BenchCase[] {
  const matching = cases.filter((c) => c.server === 'gateway' && (!options.only || options.only.test(c.name)));
  const ownTokenCases = new Set(matching.map((c) => c.ownTokenCase));
  const chosen = cases.filter((c) => matching.includes(c) || (c.server === 'gateway' && ownTokenCases.has(c.name)));
  const reads = new Set(chosen.map((c) => c.read));
  const peerReads = new Set(chosen.map((c) => c.peerRead ?? c.read));
  const companion = (c: BenchCase) =>
    c.read !== undefined &&
    ((c.server === 'baseline' && reads.has(c.read)) || (c.server === 'peer' && !options.pglite && peerReads.has(c.read)));
  return cases.filter((c) => chosen.includes(c) || companion(c));
}

/** Statements per request, counted in this process (the gateway child cannot report them) on the data set just loaded. */
async function probeStatements(
  database: Database,
  fresh: FreshDatabase,
  identity: IdentityProvider,
  cases: BenchCase[],
): Promise<Map<BenchCase, StatementCount>> {
  const config = loadConfig({
    ...GATEWAY_ENV,
    ...identity.env,
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

type Servers = Partial<Record<ServerName, Server>>;

async function startServers(
  fresh: FreshDatabase,
  node: NodeRuntime,
  withPeer: boolean,
  identity: IdentityProvider,
  profileDir: string | undefined,
): Promise<Servers> {
  const databaseUrl = (server: ServerName) =>
    fresh.kind === 'postgresql' ? withApplicationName(fresh.url, APPLICATION_NAMES[server]) : '';
  const { PLAYGROUND: _playground, ...env } = process.env;
  const servers: Servers = {};
  const stopAll = () => Promise.all(Object.values(servers).map((server) => server.stop(3_000)));
  try {
    const baselinePort = await freePort();
    servers.baseline = await startServer({
      name: 'baseline',
      node: node.path,
      cwd: root,
      args: ['--import', 'tsx', 'bench/baseline.ts'],
      env: {
        ...env,
        PORT: String(baselinePort),
        ...(fresh.kind === 'postgresql' ? { DATABASE_URL: databaseUrl('baseline') } : { PGLITE_DIR: fresh.baselineDataDir }),
      },
      port: baselinePort,
      ready: { path: '/healthz' },
      ipc: fresh.kind === 'postgresql',
    });
    if (withPeer) {
      const peerPort = await freePort();
      servers.peer = await startServer({
        name: 'peer',
        node: node.path,
        cwd: root,
        args: ['--import', 'tsx', 'bench/peer-postgraphile.ts'],
        env: { ...env, NODE_ENV: 'production', GRAPHILE_ENV: 'production', PORT: String(peerPort), DATABASE_URL: databaseUrl('peer') },
        port: peerPort,
        ready: { path: '/graphql', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{__typename}"}' },
        ipc: true,
      });
    }
    // As `npm start` runs it: its build first, then its node flags and script, on the servers' Node.
    const start = startCommand(root);
    for (const [command, ...args] of start.steps)
      execFileSync(command === 'node' ? node.path : command!, args, { cwd: root, stdio: 'inherit' });
    const startScript = start.nodeArgs.at(-1)!;
    const startFlags = start.nodeArgs.slice(0, -1);
    const gatewayPort = await freePort();
    const database = fresh.kind === 'postgresql' ? { DATABASE_URL: databaseUrl('gateway') } : { DATABASE_URL: '', DATA_DIR: fresh.dataDir };
    servers.gateway = await startServer({
      name: 'gateway',
      node: node.path,
      cwd: root,
      args: [...startFlags, ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []), startScript],
      // JWTs on as a deployment would have them: the identity provider's key set at a URL, the rest by default.
      env: { ...env, ...database, ...GATEWAY_ENV, ...identity.env, PORT: String(gatewayPort), HOST: '127.0.0.1' },
      port: gatewayPort,
      ready: { path: '/readyz' },
    });
    return servers;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The children, stopped with the run however it ends; on PostgreSQL they boot while the data loads. */
function launchServers(
  fresh: FreshDatabase,
  node: NodeRuntime,
  withPeer: boolean,
  identity: IdentityProvider,
  profileDir: string | undefined,
  cleanup: ReturnType<typeof cleanupStack>,
) {
  const launching = startServers(fresh, node, withPeer, identity, profileDir);
  launching.catch(() => {}); // reported where it is awaited
  cleanup.add(async () => {
    const servers: Servers = await launching.catch(() => ({}));
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  });
  return launching;
}

/** What one case accumulates over its measured runs (one, or one per round); per request means per sent request. */
type Tally = {
  requests: number;
  sent: number;
  durationS: number;
  failures: number;
  appCpuMs: number | null;
  dbCpuMs: number | null;
  statements: number | null;
  p50s: number[];
  p99s: number[];
  /** Each run's mean latency and its answered requests. */
  means: { meanMs: number; requests: number }[];
  roundReqPerSec: number[];
  /** The server's CPU per sent request in each round (null when it could not be read). */
  roundCpuMsPerRequest: (number | null)[];
  cappedAfterS?: number;
};

/** Long enough for a server to finish the requests that were in flight when a load stopped. */
const IN_FLIGHT_MS = 150;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const addOrNull = (total: number | null, before: number | null, after: number | null) =>
  total === null || before === null || after === null ? null : total + (after - before);

/** One measured run of a case: warm-up, then load, with the server's CPU, its database backends' CPU and its statements around it. */
async function measureOnce(
  benchCase: BenchCase,
  server: Server,
  monitor: BackendMonitor | null,
  seconds: number,
  options: Options,
  tally: Tally,
) {
  await warmUp(benchCase, server.url, options.warmupSeconds);
  const applicationName = APPLICATION_NAMES[benchCase.server];
  const [appBefore, dbBefore, statementsBefore] = [
    server.cpuMs(),
    (await monitor?.sample(applicationName)) ?? null,
    await server.statements(),
  ];
  const load = await runLoad(benchCase, server.url, seconds);
  // The requests in flight when the load stopped are still being served: their CPU counts, so they count.
  await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_MS));
  const [appAfter, dbAfter, statementsAfter] = [
    server.cpuMs(),
    (await monitor?.sample(applicationName)) ?? null,
    await server.statements(),
  ];
  tally.requests += load.requests;
  tally.sent += load.sent;
  tally.durationS += load.durationS;
  tally.failures += load.failures;
  tally.appCpuMs = addOrNull(tally.appCpuMs, appBefore, appAfter);
  tally.dbCpuMs = tally.dbCpuMs === null || !dbBefore || !dbAfter ? null : tally.dbCpuMs + backendCpuBetween(dbBefore, dbAfter);
  tally.statements = addOrNull(tally.statements, statementsBefore, statementsAfter);
  tally.p50s.push(load.p50Ms);
  tally.p99s.push(load.p99Ms);
  tally.means.push({ meanMs: load.meanMs, requests: load.requests });
  tally.roundReqPerSec.push(load.reqPerSec);
  tally.roundCpuMsPerRequest.push(appBefore === null || appAfter === null || load.sent === 0 ? null : (appAfter - appBefore) / load.sent);
  if (load.cappedAfterS) tally.cappedAfterS = load.cappedAfterS;
}

function toResult(result: CaseResult, tally: Tally, server: Server) {
  const perRequest = (total: number | null) => (total === null || tally.sent === 0 ? null : total / tally.sent);
  result.load = {
    reqPerSec: tally.durationS > 0 ? tally.requests / tally.durationS : 0,
    p50Ms: median(tally.p50s),
    p99Ms: median(tally.p99s),
    meanMs: tally.means.reduce((sum, run) => sum + run.meanMs * run.requests, 0) / Math.max(1, tally.requests),
    requests: tally.requests,
    sent: tally.sent,
    durationS: tally.durationS,
    failures: tally.failures,
    ...(tally.cappedAfterS ? { cappedAfterS: tally.cappedAfterS } : {}),
  };
  result.roundReqPerSec = tally.roundReqPerSec;
  result.roundCpuMsPerRequest = tally.roundCpuMsPerRequest;
  result.cpuMsPerRequest = perRequest(tally.appCpuMs);
  result.dbCpuMsPerRequest = perRequest(tally.dbCpuMs);
  if (result.bench.server !== 'gateway') result.statements = perRequest(tally.statements);
  result.peakRssMb = server.peakRssMb();
  if (tally.failures > 0) result.problems.push(`${tally.failures} of ${tally.requests} requests failed (non-2xx, error or timeout)`);
  if (tally.cappedAfterS) result.problems.push(`stopped by the ${tally.cappedAfterS} s cap before all its requests were sent`);
}

async function measureCases(
  cases: BenchCase[],
  servers: Servers,
  statements: Map<BenchCase, StatementCount>,
  monitor: BackendMonitor | null,
  options: Options,
): Promise<CaseResult[]> {
  const results = new Map<BenchCase, CaseResult>();
  const tallies = new Map<BenchCase, Tally>();
  /** Cases whose first request already went wrong: not loaded. */
  const skipped = new Set<BenchCase>();
  for (const benchCase of cases) {
    const probe = statements.get(benchCase);
    const result: CaseResult = {
      bench: benchCase,
      load: null,
      roundReqPerSec: [],
      roundCpuMsPerRequest: [],
      statements: probe && 'statements' in probe ? probe.statements : null,
      cpuMsPerRequest: null,
      dbCpuMsPerRequest: null,
      peakRssMb: null,
      problems: probe && 'problem' in probe ? [`in-process request: ${probe.problem}`] : [],
    };
    results.set(benchCase, result);
    const start = { appCpuMs: 0, dbCpuMs: monitor ? 0 : null, statements: benchCase.server === 'gateway' ? null : 0 };
    tallies.set(benchCase, {
      requests: 0,
      sent: 0,
      durationS: 0,
      failures: 0,
      ...start,
      p50s: [],
      p99s: [],
      means: [],
      roundReqPerSec: [],
      roundCpuMsPerRequest: [],
    });
    const wrong = benchCase.prepared === undefined ? await preflight(benchCase, servers[benchCase.server]!.url) : null;
    if (wrong) {
      result.problems.push(`HTTP request: ${wrong}`);
      skipped.add(benchCase);
      log(`${benchCase.name}: skipped, ${wrong}`);
    }
  }

  // The same data from the three servers, before any load.
  const sideBySide = cases.filter((c) => c.read !== undefined);
  for (const gateway of sideBySide.filter((c) => c.server === 'gateway')) {
    const others = sideBySide.filter(
      (c) => (c.server === 'baseline' && c.read === gateway.read) || (c.server === 'peer' && c.read === (gateway.peerRead ?? gateway.read)),
    );
    for (const other of others.filter((c) => !skipped.has(c) && !skipped.has(gateway))) {
      const problem = await differentData(
        { benchCase: gateway, url: servers.gateway!.url },
        { benchCase: other, url: servers[other.server]!.url },
      ).catch((error: Error) => `could not compare: ${error.message}`);
      if (problem) {
        results.get(other)!.problems.push(`answers differ from "${gateway.name}": ${problem}`);
        log(`${other.name}: ${problem}`);
      } else log(`${other.name}: same data as "${gateway.name}"`);
    }
  }

  // Side by side: per round, each read's cases back to back, the order rotating from round to round.
  const reads = [...new Set(sideBySide.map((c) => c.read!))];
  const sliceSeconds = options.seconds / options.rounds;
  // An unmeasured round first: a fresh server's first seconds of load cost up to twice the CPU per request
  // of the next (its JIT and heap warming up), which would weigh on whichever case the first round starts with.
  for (const read of reads)
    for (const benchCase of sideBySide.filter((c) => c.read === read && !skipped.has(c))) {
      log(`warm-up round: ${benchCase.name} …`);
      await warmUp(benchCase, servers[benchCase.server]!.url, options.warmupSeconds + sliceSeconds);
    }
  for (let round = 0; round < options.rounds; round += 1) {
    for (const read of reads) {
      const ofRead = sideBySide.filter((c) => c.read === read && !skipped.has(c));
      const order = ofRead.map((_, k) => ofRead[(k + round) % ofRead.length]!);
      for (const benchCase of order) {
        log(`round ${round + 1}/${options.rounds}: ${benchCase.name} …`);
        await measureOnce(benchCase, servers[benchCase.server]!, monitor, sliceSeconds, options, tallies.get(benchCase)!);
      }
    }
  }
  for (const benchCase of cases.filter((c) => c.read === undefined && !skipped.has(c))) {
    log(`${benchCase.name} …`);
    await measureOnce(benchCase, servers[benchCase.server]!, monitor, options.seconds, options, tallies.get(benchCase)!);
  }
  for (const benchCase of cases)
    if (tallies.get(benchCase)!.roundReqPerSec.length > 0)
      toResult(results.get(benchCase)!, tallies.get(benchCase)!, servers[benchCase.server]!);
  return cases.map((c) => results.get(c)!);
}

async function main(): Promise<void> {
  // `--subscriptions` (or `--cases subscriptions`): live lessons under load, a run of its own (bench/subscriptions.ts).
  if (wantsSubscriptions(process.argv.slice(2))) return runSubscriptions(process.argv.slice(2));
  // `--pooler`: the reads through PgBouncer beside direct, with and without named statements (bench/pooler.ts).
  if (wantsPooler(process.argv.slice(2))) return runPooler(process.argv.slice(2));
  // `--replicas`: the reads with one streaming replica beside the primary alone (bench/replicas.ts).
  if (wantsReplicas(process.argv.slice(2))) return runReplicas(process.argv.slice(2));
  const options = parseOptions(process.argv.slice(2));
  const cleanup = cleanupStack();
  const interrupted = () => void cleanup.run().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const node = nodeForServers(root, log);
    log(`servers run on Node ${node.version}${node.installed ? ` (${node.path})` : ''}`);
    const fresh = options.pglite ? await createPgliteFolder() : await createPostgresDatabase(process.env.DATABASE_URL || DEFAULT_ADMIN_URL);
    cleanup.add(() => fresh.remove());
    log(`database: ${fresh.describe}`);
    if (options.pglite) log('embedded PGlite: no peer (PostGraphile needs a PostgreSQL server) and no database CPU');
    const profileDir = options.profile ? await mkdtemp(join(tmpdir(), 'lgw-bench-profile-')) : undefined;
    // The platform's identity provider (its key set, served by this process): the JWT cases' tokens are signed by it.
    const identity = await startIdentityProvider();
    cleanup.add(() => identity.close());

    // Migrated here, so the gateway finds nothing to migrate when it starts (and the peer sees the tables).
    const database = await openDatabase({
      databaseUrl: fresh.kind === 'postgresql' ? fresh.url : undefined,
      dataDir: fresh.kind === 'pglite' ? fresh.dataDir : '',
    });
    const withPeer = fresh.kind === 'postgresql';
    // A PGlite folder admits one process at a time: its servers start once this process has let go.
    let launching = withPeer ? launchServers(fresh, node, withPeer, identity, profileDir, cleanup) : undefined;
    let cases: BenchCase[];
    let statements: Map<BenchCase, StatementCount>;
    try {
      const dataset = await loadDataset(database, options, (step) => log(`loaded ${step}`));
      // One JWT for the whole run, as one client holds one token (issued for an hour: longer than a run).
      const teacherJwt = await identity.jwtFor(dataset.teacherId);
      cases = selectCases(buildCases(dataset, { sessions: options.sessions, finishLessonSizes: FINISH_LESSON_SIZES, teacherJwt }), options);
      statements = await probeStatements(database, fresh, identity, cases);
      log('statements per request counted in-process');
    } finally {
      await database.close();
    }
    if (fresh.kind === 'pglite') {
      await cp(fresh.dataDir, fresh.baselineDataDir, { recursive: true });
      launching = launchServers(fresh, node, false, identity, profileDir, cleanup);
    }
    const servers = await launching!;
    const gateway = servers.gateway!;
    const readyRssMb = gateway.rssMb();
    for (const server of Object.values(servers))
      log(`${server.name} ${server.url} (pid ${server.child.pid}, ${server.rssMb()} MB resident)`);
    const monitor = fresh.kind === 'postgresql' ? await openBackendMonitor(fresh.url) : null;
    cleanup.add(async () => monitor?.close());

    const results = await measureCases(cases, servers, statements, monitor, options);
    const peakRssMb = gateway.peakRssMb();
    const otherPeaks = Object.fromEntries(
      Object.values(servers)
        .filter((server) => server !== gateway)
        .map((server) => [server.name, server.peakRssMb()]),
    );
    // Stopped before the report: a profiled gateway writes its profile as it exits, so it gets time.
    const [killed] = await Promise.all([
      gateway.stop(profileDir ? 60_000 : 3_000),
      ...Object.values(servers)
        .filter((server) => server !== gateway)
        .map((server) => server.stop(3_000)),
    ]);
    log(killed ? 'gateway did not exit within 3 s of SIGTERM: killed' : 'servers stopped');
    log(`identity provider: key set fetched ${identity.fetches()} times (the in-process statement count's gateway included)`);

    const checks = checkTargets(results, peakRssMb);
    printReport(results, checks, peakRssMb);
    process.stdout.write(
      `gateway resident when ready: ${readyRssMb} MB; peaks of the others: ${JSON.stringify(otherPeaks)}; servers on Node ${node.version}\n`,
    );
    await writeResults(RESULTS_FILE, results, checks, peakRssMb, {
      memory: { gatewayReadyRssMb: readyRssMb, otherPeakRssMb: otherPeaks },
      options: {
        quick: options.quick,
        database: fresh.kind,
        activities: options.activities,
        classroomActivities: options.classroomActivities,
        sessions: options.sessions,
        secondsPerCase: options.seconds,
        rounds: options.rounds,
        serversNode: node.version,
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
