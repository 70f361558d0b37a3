import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { startServerProcess, stopServerProcesses } from '../../kit/server-process.ts';

// One socket against the real server (docs/operations.md, Live lessons across instances): a client that stops
// reading and floods `ping` messages, with an unrequested pong frame now and then, is closed once what
// waits for it passes SUBSCRIPTION_SEND_BUFFER, and the server's resident memory stays bounded meanwhile.

/** Growth of resident memory over the server's own once ready; the flood stops there if nothing else stops it. */
const MAX_GROWTH_MB = 150;
/** At most this many pings (~21 bytes each on the wire): far past what 1 MB of pongs and the kernel's buffers take. */
const MAX_PINGS = 3_000_000;

const residentMb = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Resolves once the process's resident size has held within 2 MB for a second (its start's allocations are over). */
async function settled(pid: number): Promise<void> {
  const readings: number[] = [];
  for (let tries = 0; tries < 120; tries += 1) {
    readings.push(residentMb(pid));
    const last = readings.slice(-5);
    if (last.length === 5 && Math.max(...last) - Math.min(...last) < 2) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('a ping flood from a socket that does not read', () => {
  afterAll(() => stopServerProcesses());

  it(`is closed and dropped, and the server stays up within ${MAX_GROWTH_MB} MB more resident memory`, async () => {
    // The keep-alive would drop it too, later (tests/integration/live-lessons/lifecycle.test.ts): not here.
    const server = await startServerProcess({ DEMO_DATA: '0', LOG_LEVEL: 'warn', SUBSCRIPTION_KEEP_ALIVE: '1 hour' });
    const pid = server.child.pid!;
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
    await settled(pid);

    const socket = new WebSocket(`${server.origin.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    socket.on('error', () => {}); // the server's reset, once it drops the socket
    const pongs = setInterval(() => socket.readyState === WebSocket.OPEN && socket.pong(), 500);
    onTestFinished(() => {
      clearInterval(pongs);
      socket.terminate();
    });
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'connection_init' }));
    const [ack] = (await once(socket, 'message')) as [Buffer];
    expect(JSON.parse(String(ack))).toEqual({ type: 'connection_ack' });

    // Read nothing more; ping, with a pong frame nobody asked for every half second.
    socket.pause();
    const ping = JSON.stringify({ type: 'ping' });
    // A client that does not read does not learn of its end: the server's log says when it gave up.
    const dropped = () => server.output().includes('websocket closed: its send buffer is full');
    let sent = 0;
    // Growth over the lowest resident size seen (PGlite gives memory back now and then).
    let lowest = residentMb(pid);
    let peak = 0;
    while (!dropped() && sent < MAX_PINGS && peak < MAX_GROWTH_MB) {
      for (let i = 0; i < 2_000; i += 1) socket.send(ping);
      sent += 2_000;
      // Let the server's output in; and what the server has not read yet stays here: wait for it to go down.
      await new Promise((resolve) => setImmediate(resolve));
      while (!dropped() && socket.bufferedAmount > 256 * 1024) await new Promise((resolve) => setTimeout(resolve, 2));
      const resident = residentMb(pid);
      lowest = Math.min(lowest, resident);
      peak = Math.max(peak, resident - lowest);
    }
    expect(dropped(), `${sent} pings sent, resident memory grew ${Math.round(peak)} MB`).toBe(true);
    expect(peak, `peak growth of resident memory ${Math.round(peak)} MB`).toBeLessThan(MAX_GROWTH_MB);
    expect(server.child.exitCode, server.output()).toBeNull();
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
    // Once it reads again, the client finds its socket closed.
    const closed = once(socket, 'close');
    socket.resume();
    await closed;
  }, 120_000);
});
