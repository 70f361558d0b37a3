import { execFileSync } from 'node:child_process';
import { writeFile, mkdir } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/client.ts';
import { startCommand } from '../scripts/start-command.mjs';
import { startPgBouncer } from '../tests/kit/pgbouncer.ts';
import { buildCases, type BenchCase } from './cases.ts';
import { loadDataset } from './dataset.ts';
import { backendCpuBetween, openBackendMonitor, withApplicationName } from './db-cpu.ts';
import { createPostgresDatabase, DEFAULT_ADMIN_URL } from './fresh-database.ts';
import { preflight, runLoad, warmUp } from './measure.ts';
import { nodeForServers } from './node-runtime.ts';
import { freePort, procCpuMs, startServer, type Server } from './processes.ts';

// npm run bench -- --pooler [--quick] [--seconds S] [--rounds N]: the gateway's side-by-side reads through
// PgBouncer in transaction mode beside direct, with and without named statements (bench/README.md, Behind
// PgBouncer). A run of its own: one fresh database, three gateways, no peer and no baseline.

const root = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_FILE = join(root, 'bench', 'results', 'pooler-latest.json');
const GATEWAY_ENV = { NODE_ENV: 'production', LOG_LEVEL: 'warn', DEMO_DATA: '0', RATE_LIMIT_MAX: '1000000' };

/** How each gateway reaches the database: the first is what the others are compared with. */
const TARGETS = [
  { name: 'direct, named', pooled: false, prepared: true },
  { name: 'direct, unnamed', pooled: false, prepared: false },
  { name: 'PgBouncer, unnamed', pooled: true, prepared: false },
] as const;
type Target = (typeof TARGETS)[number];

type Tally = {
  requests: number;
  sent: number;
  seconds: number;
  failures: number;
  gatewayMs: number;
  poolerMs: number;
  dbMs: number;
  p50s: number[];
};

export const wantsPooler = (argv: string[]) => argv.includes('--pooler');

const log = (message: string) => process.stderr.write(`[bench pooler] ${message}\n`);

export async function runPooler(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      pooler: { type: 'boolean' },
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
  const fresh = await createPostgresDatabase(process.env.DATABASE_URL || DEFAULT_ADMIN_URL);
  if (fresh.kind !== 'postgresql') throw new Error('unreachable');
  const undo: (() => Promise<unknown>)[] = [() => fresh.remove()];
  try {
    log(`database: ${fresh.describe}`);
    const database = await openDatabase({ databaseUrl: fresh.url, dataDir: '' });
    const sessions = 30;
    let cases: BenchCase[];
    try {
      const dataset = await loadDataset(
        database,
        { activities: quick ? 1_000 : 5_000, classroomActivities: quick ? 20 : 200, sessions, finishLessonPools: {} },
        (step) => log(`loaded ${step}`),
      );
      // The side-by-side reads with the gateway's own token (no identity provider here: the JWT cases are left out).
      cases = buildCases(dataset, { sessions, finishLessonSizes: [], teacherJwt: '' }).filter(
        (c) => c.server === 'gateway' && c.read !== undefined && c.ownTokenCase === undefined,
      );
    } finally {
      await database.close();
    }
    const pooler = await startPgBouncer(fresh.url);
    undo.push(() => pooler.stop());
    log(`PgBouncer ${pooler.host} (pid ${pooler.pid}, tests/kit/pgbouncer.ini)`);
    const start = startCommand(root);
    for (const [command, ...args] of start.steps)
      execFileSync(command === 'node' ? node.path : command!, args, { cwd: root, stdio: 'inherit' });
    const { PLAYGROUND: _playground, ...env } = process.env;
    const servers = new Map<Target, Server>();
    for (const target of TARGETS) {
      const direct = withApplicationName(fresh.url, applicationName(target));
      const url = new URL(direct);
      if (target.pooled) url.host = pooler.host;
      const port = await freePort();
      const server = await startServer({
        name: target.name,
        node: node.path,
        cwd: root,
        args: start.nodeArgs,
        env: {
          ...env,
          ...GATEWAY_ENV,
          DATABASE_URL: url.toString(),
          DATABASE_DIRECT_URL: direct,
          DATABASE_PREPARED_STATEMENTS: target.prepared ? '1' : '0',
          PORT: String(port),
          HOST: '127.0.0.1',
        },
        port,
        ready: { path: '/readyz' },
      });
      servers.set(target, server);
      undo.push(() => server.stop(3_000));
    }
    const monitor = await openBackendMonitor(fresh.url);
    undo.push(() => monitor.close());

    const tallies = new Map<string, Tally>();
    const tallyOf = (c: BenchCase, t: Target) => {
      const key = `${c.name}|${t.name}`;
      if (!tallies.has(key))
        tallies.set(key, { requests: 0, sent: 0, seconds: 0, failures: 0, gatewayMs: 0, poolerMs: 0, dbMs: 0, p50s: [] });
      return tallies.get(key)!;
    };
    for (const benchCase of cases)
      for (const [target, server] of servers) {
        const wrong = await preflight(benchCase, server.url);
        if (wrong) throw new Error(`${benchCase.name} on ${target.name}: ${wrong}`);
        await warmUp(benchCase, server.url, quick ? 0.3 : 1);
      }
    const slice = seconds / rounds;
    for (let round = 0; round < rounds; round += 1)
      for (const benchCase of cases)
        for (let k = 0; k < TARGETS.length; k += 1) {
          const target = TARGETS[(k + round) % TARGETS.length]!;
          const server = servers.get(target)!;
          log(`round ${round + 1}/${rounds}: ${benchCase.name}, ${target.name} …`);
          await warmUp(benchCase, server.url, quick ? 0.3 : 1);
          const before = [server.cpuMs(), procCpuMs(pooler.pid), await monitor.sample(applicationName(target))] as const;
          const load = await runLoad(benchCase, server.url, slice);
          await new Promise((resolve) => setTimeout(resolve, 150));
          const after = [server.cpuMs(), procCpuMs(pooler.pid), await monitor.sample(applicationName(target))] as const;
          const tally = tallyOf(benchCase, target);
          tally.requests += load.requests;
          tally.sent += load.sent;
          tally.seconds += load.durationS;
          tally.failures += load.failures;
          tally.gatewayMs += (after[0] ?? 0) - (before[0] ?? 0);
          if (target.pooled) tally.poolerMs += (after[1] ?? 0) - (before[1] ?? 0);
          if (before[2] && after[2]) tally.dbMs += backendCpuBetween(before[2], after[2]);
          tally.p50s.push(load.p50Ms);
        }
    const rows = cases.flatMap((benchCase) => {
      const reference = tallyOf(benchCase, TARGETS[0]);
      return TARGETS.map((target) => {
        const t = tallyOf(benchCase, target);
        const perRequest = (ms: number) => (t.sent ? +(ms / t.sent).toFixed(3) : null);
        const reqPerSec = t.seconds ? t.requests / t.seconds : 0;
        return {
          read: benchCase.name,
          target: target.name,
          reqPerSec: Math.round(reqPerSec),
          versusDirectNamed: +(reqPerSec / (reference.requests / reference.seconds)).toFixed(2),
          p50Ms: [...t.p50s].sort((a, b) => a - b)[Math.floor((t.p50s.length - 1) / 2)],
          gatewayCpuMsPerRequest: perRequest(t.gatewayMs),
          pgbouncerCpuMsPerRequest: target.pooled ? perRequest(t.poolerMs) : null,
          dbCpuMsPerRequest: perRequest(t.dbMs),
          totalCpuMsPerRequest: perRequest(t.gatewayMs + t.poolerMs + t.dbMs),
          failures: t.failures,
        };
      });
    });
    const machine = { cores: cpus().length, loadAvg: loadavg().map((value) => +value.toFixed(2)) };
    process.stdout.write(
      `\n| read | target | req/s | × direct, named | p50 ms | gateway CPU ms/req | PgBouncer CPU ms/req | DB CPU ms/req | all CPU ms/req | failed |\n|---|---|---|---|---|---|---|---|---|---|\n`,
    );
    for (const row of rows)
      process.stdout.write(
        `| ${row.read} | ${row.target} | ${row.reqPerSec} | ${row.versusDirectNamed} | ${row.p50Ms} | ${row.gatewayCpuMsPerRequest} | ${row.pgbouncerCpuMsPerRequest ?? '–'} | ${row.dbCpuMsPerRequest} | ${row.totalCpuMsPerRequest} | ${row.failures} |\n`,
      );
    process.stdout.write(
      `\nload average at the end: ${machine.loadAvg.join(', ')} (${machine.cores} cores); servers on Node ${node.version}\n`,
    );
    await mkdir(dirname(RESULTS_FILE), { recursive: true });
    await writeFile(RESULTS_FILE, `${JSON.stringify({ at: new Date().toISOString(), machine, seconds, rounds, quick, rows }, null, 2)}\n`);
    log(`wrote ${RESULTS_FILE}`);
  } finally {
    for (const step of undo.reverse()) await step().catch((error: Error) => log(`cleanup: ${error.message}`));
  }
}

/** Each gateway's pool names itself, through PgBouncer too (it sets application_name on the server connection it lends). */
const applicationName = (target: Target) => `lgw-bench-${target.name.replace(/\W+/g, '-')}`;
