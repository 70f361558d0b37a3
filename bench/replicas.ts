import { startReplicaPair, type ReplicaPair } from '../tests/kit/replica.ts';
import { openBackendMonitor, withApplicationName } from './db-cpu.ts';
import { createPostgresDatabase } from './fresh-database.ts';
import { backendCpu, runSideBySide, type PreparedTargets, type SetUp, type SideBySideBench } from './side-by-side.ts';

// npm run bench -- --replicas [--quick] [--seconds S] [--rounds N]: the gateway's reads with one streaming
// replica beside the primary alone (bench/README.md, Read replicas): req/s, and the CPU each read costs the
// primary and the replica. A run of its own (bench/side-by-side.ts): a throwaway primary and replica, two gateways.

const TARGETS = [
  { name: 'primary alone', replica: false },
  { name: 'primary + 1 replica', replica: true },
] as const;
type Target = (typeof TARGETS)[number];

/** Each gateway's connections name themselves: its primary pool, and its replica pool. */
const primaryName = (target: Target) => `lgw-bench-${target.replica ? 'with-replica' : 'primary-alone'}`;
const REPLICA_NAME = 'lgw-bench-replica-reads';

const REPLICAS_BENCH: SideBySideBench<Target> = {
  name: 'replicas',
  targets: TARGETS,
  ratioToFirst: { field: 'versusPrimaryAlone', heading: '× primary alone' },
  /** A throwaway primary and its replica as the replica pass starts them (tests/kit/replica.ts), the database on the primary. */
  async createDatabase(setUp) {
    const pair = await startReplicaPair();
    setUp.cleanUp(() => pair.stop());
    const fresh = await createPostgresDatabase(pair.primary.url);
    if (fresh.kind !== 'postgresql') throw new Error('unreachable');
    setUp.log(`${fresh.describe}; its replica on port ${pair.replica.port}`);
    return { url: fresh.url, prepareTargets: () => readFromReplica(pair, fresh.url, setUp) };
  },
};

/** Once the replica has the data set: the replica's URL for one gateway, and the primary's and the replica's backends' CPU. */
async function readFromReplica(pair: ReplicaPair, databaseUrl: string, { cleanUp }: SetUp): Promise<PreparedTargets<Target>> {
  const replicaUrl = new URL(databaseUrl);
  replicaUrl.port = String(pair.replica.port);
  await pair.replica.caughtUp();
  const primaryMonitor = await openBackendMonitor(databaseUrl);
  cleanUp(() => primaryMonitor.close());
  const replicaMonitor = await openBackendMonitor(replicaUrl.toString());
  cleanUp(() => replicaMonitor.close());
  return {
    databaseEnv: (target) => ({
      DATABASE_URL: withApplicationName(databaseUrl, primaryName(target)),
      DATABASE_REPLICA_URLS: target.replica ? withApplicationName(replicaUrl.toString(), REPLICA_NAME) : '',
    }),
    cpuSources: [
      {
        field: 'primaryCpuMsPerRequest',
        heading: 'primary CPU ms/req',
        serves: () => true,
        startCounting: backendCpu(primaryMonitor, primaryName),
      },
      {
        field: 'replicaCpuMsPerRequest',
        heading: 'replica CPU ms/req',
        serves: (target) => target.replica,
        startCounting: backendCpu(replicaMonitor, () => REPLICA_NAME),
      },
    ],
  };
}

export const wantsReplicas = (argv: string[]) => argv.includes('--replicas');

export const runReplicas = (argv: string[]): Promise<void> => runSideBySide(REPLICAS_BENCH, argv);
