import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { lagOf, parseLsn } from '../../src/db/replicas.ts';

// DATABASE_REPLICA_URLS and DATABASE_REPLICA_MAX_LAG as a start reads them (docs/operations.md, Read replicas),
// and how a replica's lag is told from the primary's sampled positions (src/db/replicas.ts).

const server = 'postgresql://postgres@127.0.0.1:5432/app';
const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the configuration was accepted');
};

describe('replica settings', () => {
  it('reads a comma-separated list of replicas and the lag limit, 5 s by default', () => {
    const config = loadConfig({ DATABASE_URL: server, DATABASE_REPLICA_URLS: ' postgresql://r1:5432/app, postgres://r2/app ,' });
    expect(config.databaseReplicaUrls).toEqual(['postgresql://r1:5432/app', 'postgres://r2/app']);
    expect(config.databaseReplicaMaxLagMs).toBe(5_000);
    expect(loadConfig({ DATABASE_URL: server, DATABASE_REPLICA_MAX_LAG: '250ms' }).databaseReplicaMaxLagMs).toBe(250);
    expect(loadConfig({}).databaseReplicaUrls).toEqual([]);
  });

  it('refuses replicas with the embedded database, a URL that is not PostgreSQL, and a limit out of its range, naming the setting', () => {
    expect(refusal({ DATABASE_REPLICA_URLS: 'postgresql://r1/app' })).toMatch(
      /DATABASE_REPLICA_URLS is set without DATABASE_URL: .*embedded database \(PGlite\) has none/,
    );
    expect(refusal({ DATABASE_URL: server, DATABASE_REPLICA_URLS: 'mysql://r1/app' })).toContain('DATABASE_REPLICA_URLS="mysql://r1/app"');
    expect(refusal({ DATABASE_URL: server, DATABASE_REPLICA_MAX_LAG: '50ms' })).toContain(
      'DATABASE_REPLICA_MAX_LAG="50ms": must be from 100 ms to 1 hour',
    );
    expect(refusal({ DATABASE_URL: server, DATABASE_REPLICA_MAX_LAG: '2 hours' })).toContain('DATABASE_REPLICA_MAX_LAG');
  });
});

describe("a replica's lag", () => {
  const samples = [
    { at: 1_000, lsn: parseLsn('0/100') },
    { at: 2_000, lsn: parseLsn('0/200') },
    { at: 3_000, lsn: parseLsn('1/0') },
  ];

  it('reads positions as numbers that compare', () => {
    expect(parseLsn('1/0')).toBe(2n ** 32n);
    expect(parseLsn('0/FF') < parseLsn('0/100')).toBe(true);
  });

  it('is 0 at or past the latest position the primary had, however long ago that was', () => {
    expect(lagOf(parseLsn('1/0'), samples, 1_000_000)).toBe(0);
  });

  it('is the time since the latest position it had reached, and unbounded when it had reached none', () => {
    expect(lagOf(parseLsn('0/250'), samples, 3_500)).toBe(1_500);
    expect(lagOf(parseLsn('0/50'), samples, 3_500)).toBe(Number.POSITIVE_INFINITY);
    expect(lagOf(parseLsn('0/50'), [], 3_500)).toBe(Number.POSITIVE_INFINITY);
  });
});
