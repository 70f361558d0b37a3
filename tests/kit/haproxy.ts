import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';

// HAProxy in front of several gateway instances, as docs/operations.md (A rolling deploy) configures it:
// Debian's haproxy, on a free port of 127.0.0.1, health checks on /readyz, its admin socket in a folder of
// its own (server states and counters for the test). Started like tests/kit/pgbouncer.ts.

const STARTUP_TIMEOUT_MS = 10_000;

/** The haproxy executable (HAPROXY, else Debian's), or undefined when it is not installed. */
export function haproxyExecutable(): string | undefined {
  return [process.env.HAPROXY, '/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'].find(
    (path): path is string => Boolean(path) && existsSync(path!),
  );
}

/** Why a test that needs HAProxy is skipped, or undefined when it is installed. */
export const withoutHAProxy = haproxyExecutable()
  ? undefined
  : 'haproxy is not installed (Debian: apt-get install haproxy; or set HAPROXY to its path): skipped';

/** A backend server as HAProxy's statistics show it. */
export type ServerStats = {
  /** `UP`, `DOWN`, `NOLB`, `MAINT`; with checks going on, e.g. `UP 1/2`. */
  status: string;
  /** Requests it was sent, and the answers it gave by class. */
  requests: number;
  responses5xx: number;
  /** Connection and response errors HAProxy met with it, and its retries and redispatches away from it. */
  connectionErrors: number;
  responseErrors: number;
  retries: number;
  redispatches: number;
};

export type HAProxy = {
  /** `http://127.0.0.1:<port>`: the balancer's front. */
  origin: string;
  port: number;
  /** Each backend server's statistics, by name. */
  servers(): Promise<Record<string, ServerStats>>;
  /** Resolves once the server `name` is UP (or DOWN) in HAProxy's eyes. */
  waitForServer(name: string, state: 'UP' | 'DOWN', timeoutMs?: number): Promise<void>;
  /** Everything haproxy printed so far. */
  output(): string;
  stop(): Promise<void>;
};

export type HAProxyOptions = {
  /** Time between two health checks of a server (HAProxy's `inter`); a server is out after two failed, in after one passed. */
  checkIntervalMs?: number;
};

/** The configuration docs/operations.md shows, on loopback ports, with its admin socket at `socket`. */
export function haproxyConfig(port: number, servers: { name: string; port: number }[], socket: string, checkIntervalMs: number): string {
  return [
    'global',
    `  stats socket ${socket} mode 600 level admin`,
    '  maxconn 4000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // Above the clients' own idle timeout (Node's fetch: 4 s), so that the balancer never closes one they reuse.
    '  timeout http-keep-alive 10s',
    // An open WebSocket or event stream: as long as it lives (its keep-alive traffic comes every SUBSCRIPTION_KEEP_ALIVE).
    '  timeout tunnel 1h',
    // A request whose connection failed or was closed before any answer (a kept-alive connection the
    // instance had just closed) is sent again, to another instance. Never on a timeout: a mutation might run twice.
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response',
    'frontend gateway',
    `  bind 127.0.0.1:${port}`,
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    // A slow answer (a loaded machine) is not a failed check: only a refusal or a 503 is.
    '  timeout check 5s',
    `  default-server check inter ${checkIntervalMs}ms fall 2 rise 1`,
    ...servers.map((server) => `  server ${server.name} 127.0.0.1:${server.port}`),
    '',
  ].join('\n');
}

/** Sends one command to the admin socket and resolves with its answer. */
function ask(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = connect(socket);
    let answer = '';
    connection.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    connection.once('error', reject).once('end', () => resolve(answer));
    connection.end(`${command}\n`);
  });
}

/** `show stat`'s CSV: the backend's servers, by name. */
function parseStats(csv: string, backend: string): Record<string, ServerStats> {
  const [header, ...rows] = csv.trim().split('\n');
  const names = header!.replace(/^# /, '').split(',');
  const servers: Record<string, ServerStats> = {};
  for (const row of rows) {
    const values = row.split(',');
    const field = (name: string) => values[names.indexOf(name)] ?? '';
    const number = (name: string) => Number(field(name) || 0);
    if (field('pxname') !== backend || ['BACKEND', 'FRONTEND'].includes(field('svname'))) continue;
    servers[field('svname')] = {
      status: field('status'),
      requests: number('stot'),
      responses5xx: number('hrsp_5xx'),
      connectionErrors: number('econ'),
      responseErrors: number('eresp'),
      retries: number('wretr'),
      redispatches: number('wredis'),
    };
  }
  return servers;
}

/** Starts HAProxy in front of `servers` (loopback ports) and resolves once it answers on its admin socket. */
export async function startHAProxy(servers: { name: string; port: number }[], options: HAProxyOptions = {}): Promise<HAProxy> {
  const executable = haproxyExecutable();
  if (!executable) throw new Error(withoutHAProxy);
  const dir = await mkdtemp(join(tmpdir(), 'lgw-haproxy-'));
  const socket = join(dir, 'admin.sock');
  const configFile = join(dir, 'haproxy.cfg');
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    await writeFile(configFile, haproxyConfig(port, servers, socket, options.checkIntervalMs ?? 250));
    // -db: in the foreground, so that it ends with this process's signal.
    const child = spawn(executable, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: string) => (output = (output + chunk).slice(-20_000));
    child.stdout.setEncoding('utf8').on('data', keep);
    child.stderr.setEncoding('utf8').on('data', keep);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + STARTUP_TIMEOUT_MS;
    let stats: string | undefined;
    while (stats === undefined && child.exitCode === null && Date.now() < deadline) {
      stats = await ask(socket, 'show stat').catch(() => undefined);
      if (stats === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (stats === undefined) {
      child.kill('SIGTERM');
      await exited;
      // Another process may have taken the port between the look and the start.
      if (attempt < 3 && /cannot bind|Address already in use/i.test(output)) continue;
      await rm(dir, { recursive: true, force: true });
      throw new Error(`HAProxy did not start:\n${output}`);
    }
    const serversNow = async () => parseStats(await ask(socket, 'show stat'), 'instances');
    return {
      origin: `http://127.0.0.1:${port}`,
      port,
      servers: serversNow,
      async waitForServer(name, state, timeoutMs = 20_000) {
        const until = Date.now() + timeoutMs;
        for (;;) {
          const status = (await serversNow())[name]?.status ?? '';
          // "UP 1/2" is still up (a check failed), "DOWN 1/1" still down (one passed).
          if (status.split(' ')[0] === state) return;
          if (Date.now() > until) throw new Error(`timed out waiting for HAProxy to see ${name} ${state} (it is ${status})`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
      output: () => output,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          await exited;
        }
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
}
