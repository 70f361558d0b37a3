import { startPgBouncer } from '../tests/kit/pgbouncer.ts';
import { openBackendMonitor, withApplicationName } from './db-cpu.ts';
import { createPostgresDatabase, DEFAULT_ADMIN_URL } from './fresh-database.ts';
import { procCpuMs } from './processes.ts';
import { backendCpu, runSideBySide, type PreparedTargets, type SetUp, type SideBySideBench } from './side-by-side.ts';

// npm run bench -- --pooler [--quick] [--seconds S] [--rounds N]: the gateway's side-by-side reads through
// PgBouncer in transaction mode beside direct, with and without named statements (bench/README.md, Behind
// PgBouncer). A run of its own (bench/side-by-side.ts): one fresh database, three gateways, no peer, no baseline.

/** How each gateway reaches the database: the first is what the others are compared with. */
const TARGETS = [
  { name: 'direct, named', pooled: false, prepared: true },
  { name: 'direct, unnamed', pooled: false, prepared: false },
  { name: 'PgBouncer, unnamed', pooled: true, prepared: false },
] as const;
type Target = (typeof TARGETS)[number];

/** Each gateway's pool names itself, through PgBouncer too (it sets application_name on the server connection it lends). */
const applicationName = (target: Target) => `lgw-bench-${target.name.replace(/\W+/g, '-')}`;

const POOLER_BENCH: SideBySideBench<Target> = {
  name: 'pooler',
  targets: TARGETS,
  ratioToFirst: { field: 'versusDirectNamed', heading: '× direct, named' },
  totalCpu: { field: 'totalCpuMsPerRequest', heading: 'all CPU ms/req' },
  async createDatabase(setUp) {
    const fresh = await createPostgresDatabase(process.env.DATABASE_URL || DEFAULT_ADMIN_URL);
    if (fresh.kind !== 'postgresql') throw new Error('unreachable');
    setUp.cleanUp(() => fresh.remove());
    setUp.log(`database: ${fresh.describe}`);
    return { url: fresh.url, prepareTargets: () => startPooler(fresh.url, setUp) };
  },
};

/** PgBouncer before the database, the direct URL or PgBouncer's for each gateway, and PgBouncer's CPU beside the backends'. */
async function startPooler(databaseUrl: string, { log, cleanUp }: SetUp): Promise<PreparedTargets<Target>> {
  const pooler = await startPgBouncer(databaseUrl);
  cleanUp(() => pooler.stop());
  log(`PgBouncer ${pooler.host} (pid ${pooler.pid}, tests/kit/pgbouncer.ini)`);
  const monitor = await openBackendMonitor(databaseUrl);
  cleanUp(() => monitor.close());
  return {
    databaseEnv(target) {
      const direct = withApplicationName(databaseUrl, applicationName(target));
      const url = new URL(direct);
      if (target.pooled) url.host = pooler.host;
      return { DATABASE_URL: url.toString(), DATABASE_DIRECT_URL: direct, DATABASE_PREPARED_STATEMENTS: target.prepared ? '1' : '0' };
    },
    cpuSources: [
      {
        field: 'pgbouncerCpuMsPerRequest',
        heading: 'PgBouncer CPU ms/req',
        serves: (target) => target.pooled,
        async startCounting() {
          const before = procCpuMs(pooler.pid);
          return async () => (procCpuMs(pooler.pid) ?? 0) - (before ?? 0);
        },
      },
      { field: 'dbCpuMsPerRequest', heading: 'DB CPU ms/req', serves: () => true, startCounting: backendCpu(monitor, applicationName) },
    ],
  };
}

export const wantsPooler = (argv: string[]) => argv.includes('--pooler');

export const runPooler = (argv: string[]): Promise<void> => runSideBySide(POOLER_BENCH, argv);
