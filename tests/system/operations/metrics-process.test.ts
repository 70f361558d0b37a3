import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/live.ts';
import { scrape, total } from '../../kit/metrics.ts';
import { freePort } from '../../kit/ports.ts';
import { startServerProcess, stopServerProcesses, type ServerProcess } from '../../kit/server-process.ts';

// The metrics listener in the real server, started as `npm start` starts it (the bundle): with
// METRICS_PORT it listens on HOST at that port besides the public one, and without it on the public port
// alone. The listening sockets are read from /proc, so "off" means no listener at all, not a hidden route.

/** host:port of every TCP socket the process listens on (Linux: its descriptors, matched in /proc/<pid>/net/tcp*). */
function listeningSockets(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const found: string[] = [];
  for (const file of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${file}`, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local address, state (0A: LISTEN), inode
      if (fields.length < 10 || fields[3] !== '0A' || !inodes.has(fields[9]!)) continue;
      const [hexHost, hexPort] = fields[1]!.split(':');
      const host =
        hexHost!.length === 8
          ? (hexHost!.match(/../g) ?? [])
              .reverse()
              .map((byte) => parseInt(byte, 16))
              .join('.')
          : `[${hexHost}]`;
      found.push(`${host}:${parseInt(hexPort!, 16)}`);
    }
  }
  return found.sort();
}

describe.skipIf(process.platform !== 'linux')('the metrics listener in the real server', () => {
  let metricsPort: number;
  let withMetrics: ServerProcess;
  let without: ServerProcess;
  beforeAll(async () => {
    metricsPort = await freePort();
    [withMetrics, without] = await Promise.all([startServerProcess({ METRICS_PORT: String(metricsPort) }), startServerProcess()]);
  });
  afterAll(() => stopServerProcesses());

  it('is a second listener on HOST:METRICS_PORT with METRICS_PORT set, and no listener at all without it', async () => {
    expect(listeningSockets(withMetrics.child.pid!)).toEqual([`127.0.0.1:${metricsPort}`, `127.0.0.1:${withMetrics.port}`].sort());
    // The log line is written once the listener is up; the pipe from the child may deliver it a moment later.
    const logged = `"url":"http://127.0.0.1:${metricsPort}/metrics"`;
    await waitFor(() => withMetrics.output().includes(logged), 'the metrics listener’s log line');
    expect((await fetch(`${withMetrics.origin}/healthz`)).status).toBe(200);
    const samples = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(total(samples, 'http_server_request_duration_seconds_count', { route: '/healthz', status_code: '200' })).toBe(1);
    expect(total(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect((await fetch(`${withMetrics.origin}/metrics`)).status).toBe(404);

    expect(listeningSockets(without.child.pid!)).toEqual([`127.0.0.1:${without.port}`]);
    expect(without.output()).not.toContain('serving GET /metrics');
    expect((await fetch(`${without.origin}/metrics`)).status).toBe(404);
  });
});
