import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/client.ts';
import { startCommand } from '../scripts/start-command.mjs';
import { startReplicaPair } from '../tests/kit/replica.ts';
import { buildCases, type BenchCase } from './cases.ts';
import { loadDataset } from './dataset.ts';
import { backendCpuBetween, openBackendMonitor, withApplicationName, type BackendMonitor } from './db-cpu.ts';
import { createPostgresDatabase } from './fresh-database.ts';
import { preflight, runLoad, warmUp } from './measure.ts';
import { nodeForServers } from './node-runtime.ts';
import { freePort, startServer, type Server } from './processes.ts';

// npm run bench -- --replicas [--quick] [--seconds S] [--rounds N]: the gateway's reads with one streaming
// replica beside the primary alone (bench/README.md, Read replicas): req/s, and the CPU each read costs the
// primary and the replica. A run of its own: a throwaway primary and replica (tests/kit/replica.ts), two gateways.

const root = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_FILE = join(root, 'bench', 'results', 'replicas-latest.json');
const GATEWAY_ENV = { NODE_ENV: 'production', LOG_LEVEL: 'warn', DEMO_DATA: '0', RATE_LIMIT_MAX: '1000000' };

const TARGETS = [
  { name: 'primary alone', replica: false },
  { name: 'primary + 1 replica', replica: true },
] as const;
type Target = (typeof TARGETS)[number];
type Tally = {
  requests: number;
  sent: number;
  seconds: number;
  failures: number;
  gatewayMs: number;
  primaryMs: number;
  replicaMs: number;
  p50s: number[];
};

export const wantsReplicas = (argv: string[]) => argv.includes('--replicas');
const log = (message: string) => process.stderr.write(`[bench replicas] ${message}\n`);
/** Each gateway's connections name themselves: its primary pool, and its replica pool. */
const primaryName = (target: Target) => `lgw-bench-${target.replica ? 'with-replica' : 'primary-alone'}`;
const REPLICA_NAME = 'lgw-bench-replica-reads';

export async function runReplicas(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      replicas: { type: 'boolean' },
      quick: { type: 'boolean', default: false },
      seconds: { type: 'string' },
      rounds: { type: 'string' },
    },
  });
  const quick = values.quick;
  const seconds = Number(values.seconds ?? (quick ? 1.5 : 10));
  const rounds = Number(values.rounds ?? (quick ? 2 : 5));
  if (!(seconds > 0) || !(rounds >= 1)) throw new Error('--seconds and --rounds must be positive numbers');
  const node = nodeForServers(root, log);
  const pair = await startReplicaPair();
  const undo: (() => Promise<unknown>)[] = [() => pair.stop()];
  try {
    const fresh = await createPostgresDatabase(pair.primary.url);
    if (fresh.kind !== 'postgresql') throw new Error('unreachable');
    const replicaUrl = new URL(fresh.url);
    replicaUrl.port = String(pair.replica.port);
    log(`${fresh.describe}; its replica on port ${pair.replica.port}`);
    const cases = await loadCases(fresh.url, quick);
    await pair.replica.caughtUp();
    const servers = await startGateways(node.path, fresh.url, replicaUrl.toString(), undo);
    const primaryMonitor = await openBackendMonitor(fresh.url);
    const replicaMonitor = await openBackendMonitor(replicaUrl.toString());
    undo.push(
      () => primaryMonitor.close(),
      () => replicaMonitor.close(),
    );
    const tallies = await measure(cases, servers, { primaryMonitor, replicaMonitor, seconds, rounds, quick });
    await report(cases, tallies, { seconds, rounds, quick, nodeVersion: node.version });
  } finally {
    for (const step of undo.reverse()) await step().catch((error: Error) => log(`cleanup: ${error.message}`));
  }
}

/** The data set, and the side-by-side reads with the gateway's own token (no identity provider: no JWT cases). */
async function loadCases(url: string, quick: boolean): Promise<BenchCase[]> {
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

async function startGateways(
  nodePath: string,
  url: string,
  replicaUrl: string,
  undo: (() => Promise<unknown>)[],
): Promise<Map<Target, Server>> {
  const start = startCommand(root);
  for (const [command, ...args] of start.steps)
    execFileSync(command === 'node' ? nodePath : command!, args, { cwd: root, stdio: 'inherit' });
  const { PLAYGROUND: _playground, ...env } = process.env;
  const servers = new Map<Target, Server>();
  for (const target of TARGETS) {
    const port = await freePort();
    const server = await startServer({
      name: target.name,
      node: nodePath,
      cwd: root,
      args: start.nodeArgs,
      env: {
        ...env,
        ...GATEWAY_ENV,
        DATABASE_URL: withApplicationName(url, primaryName(target)),
        DATABASE_REPLICA_URLS: target.replica ? withApplicationName(replicaUrl, REPLICA_NAME) : '',
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      port,
      ready: { path: '/readyz' },
    });
    servers.set(target, server);
    undo.push(() => server.stop(3_000));
  }
  return servers;
}

type MeasureOptions = { primaryMonitor: BackendMonitor; replicaMonitor: BackendMonitor; seconds: number; rounds: number; quick: boolean };

/** Interleaved rounds: each read on both targets back to back, the order alternating. */
async function measure(cases: BenchCase[], servers: Map<Target, Server>, options: MeasureOptions): Promise<Map<string, Tally>> {
  const { primaryMonitor, replicaMonitor, seconds, rounds, quick } = options;
  const tallies = new Map<string, Tally>();
  for (const benchCase of cases)
    for (const [target, server] of servers) {
      const wrong = await preflight(benchCase, server.url);
      if (wrong) throw new Error(`${benchCase.name} on ${target.name}: ${wrong}`);
      await warmUp(benchCase, server.url, quick ? 0.3 : 1);
    }
  const sample = async (target: Target, server: Server) =>
    [
      server.cpuMs(),
      await primaryMonitor.sample(primaryName(target)),
      target.replica ? await replicaMonitor.sample(REPLICA_NAME) : null,
    ] as const;
  const slice = seconds / rounds;
  for (let round = 0; round < rounds; round += 1)
    for (const benchCase of cases)
      for (let k = 0; k < TARGETS.length; k += 1) {
        const target = TARGETS[(k + round) % TARGETS.length]!;
        const server = servers.get(target)!;
        log(`round ${round + 1}/${rounds}: ${benchCase.name}, ${target.name} …`);
        await warmUp(benchCase, server.url, quick ? 0.3 : 1);
        const before = await sample(target, server);
        const load = await runLoad(benchCase, server.url, slice);
        await new Promise((resolve) => setTimeout(resolve, 150));
        const after = await sample(target, server);
        const key = `${benchCase.name}|${target.name}`;
        const tally = tallies.get(key) ?? {
          requests: 0,
          sent: 0,
          seconds: 0,
          failures: 0,
          gatewayMs: 0,
          primaryMs: 0,
          replicaMs: 0,
          p50s: [],
        };
        tallies.set(key, tally);
        tally.requests += load.requests;
        tally.sent += load.sent;
        tally.seconds += load.durationS;
        tally.failures += load.failures;
        tally.gatewayMs += (after[0] ?? 0) - (before[0] ?? 0);
        if (before[1] && after[1]) tally.primaryMs += backendCpuBetween(before[1], after[1]);
        if (before[2] && after[2]) tally.replicaMs += backendCpuBetween(before[2], after[2]);
        tally.p50s.push(load.p50Ms);
      }
  return tallies;
}

async function report(
  cases: BenchCase[],
  tallies: Map<string, Tally>,
  run: { seconds: number; rounds: number; quick: boolean; nodeVersion: string },
) {
  const rows = cases.flatMap((benchCase) => {
    const reference = tallies.get(`${benchCase.name}|${TARGETS[0].name}`)!;
    return TARGETS.map((target) => {
      const t = tallies.get(`${benchCase.name}|${target.name}`)!;
      const perRequest = (ms: number) => (t.sent ? +(ms / t.sent).toFixed(3) : null);
      const reqPerSec = t.seconds ? t.requests / t.seconds : 0;
      return {
        read: benchCase.name,
        target: target.name,
        reqPerSec: Math.round(reqPerSec),
        versusPrimaryAlone: +(reqPerSec / (reference.requests / reference.seconds)).toFixed(2),
        p50Ms: [...t.p50s].sort((a, b) => a - b)[Math.floor((t.p50s.length - 1) / 2)],
        gatewayCpuMsPerRequest: perRequest(t.gatewayMs),
        primaryCpuMsPerRequest: perRequest(t.primaryMs),
        replicaCpuMsPerRequest: target.replica ? perRequest(t.replicaMs) : null,
        failures: t.failures,
      };
    });
  });
  const machine = { cores: cpus().length, loadAvg: loadavg().map((value) => +value.toFixed(2)) };
  process.stdout.write(
    `\n| read | target | req/s | × primary alone | p50 ms | gateway CPU ms/req | primary CPU ms/req | replica CPU ms/req | failed |\n|---|---|---|---|---|---|---|---|---|\n`,
  );
  for (const row of rows)
    process.stdout.write(
      `| ${row.read} | ${row.target} | ${row.reqPerSec} | ${row.versusPrimaryAlone} | ${row.p50Ms} | ${row.gatewayCpuMsPerRequest} | ${row.primaryCpuMsPerRequest} | ${row.replicaCpuMsPerRequest ?? '–'} | ${row.failures} |\n`,
    );
  process.stdout.write(
    `\nload average at the end: ${machine.loadAvg.join(', ')} (${machine.cores} cores); servers on Node ${run.nodeVersion}\n`,
  );
  await mkdir(dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify({ at: new Date().toISOString(), machine, ...run, rows }, null, 2)}\n`);
  log(`wrote ${RESULTS_FILE}`);
}
