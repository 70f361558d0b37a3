import pg from 'pg';
import { procCpuMs } from './processes.ts';

// The database's CPU spent for one server: its pool's backends, found by their application_name in
// pg_stat_activity, their CPU read from /proc/<pid>/stat (Linux, same PID namespace). A backend that ends
// between two samples takes its CPU with it: samples are taken after a warm-up, while the pools are full.

export const APPLICATION_NAMES = { gateway: 'lgw-bench-gateway', peer: 'lgw-bench-peer', baseline: 'lgw-bench-baseline' } as const;

/** `url` with `application_name` set (pg reads it from the connection string). */
export function withApplicationName(url: string, name: string): string {
  const withName = new URL(url);
  withName.searchParams.set('application_name', name);
  return withName.toString();
}

/** Backend pid → CPU ms so far. */
export type BackendSample = Map<number, number>;

export type BackendMonitor = {
  /** The CPU time of every backend of this application, or null where /proc cannot be read. */
  sample(applicationName: string): Promise<BackendSample | null>;
  close(): Promise<void>;
};

export async function openBackendMonitor(databaseUrl: string): Promise<BackendMonitor> {
  const client = new pg.Client({ connectionString: withApplicationName(databaseUrl, 'lgw-bench-monitor') });
  await client.connect();
  return {
    async sample(applicationName) {
      const { rows } = await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
        [applicationName],
      );
      const sample: BackendSample = new Map();
      for (const { pid } of rows) {
        const cpu = procCpuMs(pid);
        if (cpu === null) return null;
        sample.set(pid, cpu);
      }
      return sample;
    },
    close: () => client.end(),
  };
}

/** CPU ms the backends used between two samples; a backend that appeared in between counts from zero. */
export function backendCpuBetween(before: BackendSample, after: BackendSample): number {
  let total = 0;
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
  return total;
}
