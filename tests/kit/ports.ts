import { createServer } from 'node:net';

// One way for the kit and the tests to pick a loopback port before starting what must listen on it
// (a metrics port, PgBouncer, HAProxy, a replica, a gateway behind HAProxy).

/** A TCP port of 127.0.0.1 free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
