import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { STATEMENTS_MESSAGE } from './statement-counter.ts';

// The servers under test as child processes on 127.0.0.1 (one Node process each, as in production), on one
// Node binary (bench/node-runtime.ts): started, awaited until they answer, watched (memory, CPU), asked
// for their SQL statements, stopped.

export const HOST = '127.0.0.1';

export type Server = {
  name: string;
  child: ChildProcess;
  url: string;
  /** Largest resident set seen so far, in MB (VmHWM, else the largest VmRSS sample). */
  peakRssMb(): number | null;
  /** Resident set now, in MB. */
  rssMb(): number | null;
  /** CPU time (user + system) used so far, in ms; 10 ms resolution. */
  cpuMs(): number | null;
  /** SQL statements sent so far, for a server started with `ipc` (bench/statement-counter.ts); else null. */
  statements(): Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; true when it had to be killed. */
  stop(graceMs?: number): Promise<boolean>;
};

/** A port the OS says is free now; the child binds it a moment later (a race we accept on loopback). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** kB values of /proc/<pid>/status (Linux only; null elsewhere or once the process is gone). */
function procStatusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** utime + stime of /proc/<pid>/stat, in ms (Linux only; the kernel counts in 100 Hz ticks). */
export function procCpuMs(pid: number): number | null {
  try {
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** The request that answers 200 once a server is ready. */
export type ReadyRequest = { path: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string };

export type StartOptions = {
  name: string;
  /** The Node binary. */
  node: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  port: number;
  ready: ReadyRequest;
  readyTimeoutMs?: number;
  /** Opens an IPC channel: the child reports its SQL statements over it (bench/statement-counter.ts). */
  ipc?: boolean;
};

export async function startServer({
  name,
  node,
  args,
  env,
  cwd,
  port,
  ready,
  readyTimeoutMs = 60_000,
  ipc = false,
}: StartOptions): Promise<Server> {
  const child = spawn(node, args, { cwd, env, stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'] });
  // Keep the last few lines of output: they explain a failed start.
  let output = '';
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-4_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  let sampledPeakKb = 0;
  const sampler = setInterval(() => {
    sampledPeakKb = Math.max(sampledPeakKb, procStatusKb(child.pid!, 'VmRSS') ?? 0);
  }, 250);
  sampler.unref();

  const url = `http://${HOST}:${port}`;
  const server: Server = {
    name,
    child,
    url,
    rssMb() {
      const kb = procStatusKb(child.pid!, 'VmRSS');
      return kb === null ? null : Math.round(kb / 1024);
    },
    cpuMs() {
      return procCpuMs(child.pid!);
    },
    statements() {
      if (!ipc || !child.connected) return Promise.resolve(null);
      return new Promise((resolve) => {
        const timer = setTimeout(() => finish(null), 5_000);
        const onMessage = (message: unknown) => {
          const statements = (message as { statements?: unknown } | null)?.statements;
          if (typeof statements === 'number') finish(statements);
        };
        const finish = (value: number | null) => {
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve(value);
        };
        child.on('message', onMessage);
        child.send(STATEMENTS_MESSAGE);
      });
    },
    peakRssMb() {
      const kb = procStatusKb(child.pid!, 'VmHWM') ?? (sampledPeakKb || null);
      return kb === null ? null : Math.round(kb / 1024);
    },
    async stop(graceMs = 15_000) {
      clearInterval(sampler);
      if (child.exitCode !== null || child.signalCode !== null) return false;
      child.kill('SIGTERM');
      let killed = false;
      const timer = setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, graceMs);
      await exited;
      clearTimeout(timer);
      return killed;
    },
  };

  const deadline = Date.now() + readyTimeoutMs;
  let stopped: number | null | undefined;
  void exited.then((code) => (stopped = code));
  while (Date.now() < deadline) {
    if (stopped !== undefined) throw new Error(`${name} exited (code ${stopped}) before it was ready:\n${output}`);
    try {
      const response = await fetch(`${url}${ready.path}`, {
        method: ready.method ?? 'GET',
        headers: ready.headers ?? {},
        body: ready.body ?? null,
        signal: AbortSignal.timeout(2_000),
      });
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.stop();
  throw new Error(`${name} was not ready within ${readyTimeoutMs} ms:\n${output}`);
}
