import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Config } from '../config.ts';

// The metrics' own listener on HOST:METRICS_PORT: GET /metrics and nothing else (404, 405 otherwise), so
// that the public port never serves them and the port can be firewalled apart (SECURITY.md). A plain
// node:http server: none of the public port's hooks (rate limit, admission, logging) belong here.

/** Scrapers are few; this port's connections do not count in MAX_CONNECTIONS, so it has its own small cap. */
const MAX_SCRAPE_CONNECTIONS = 32;

export type MetricsListener = { url: string; close(): Promise<void> };

export async function listenForScrapes(
  registry: Registry,
  config: Pick<Config, 'host' | 'metricsPort' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'>,
): Promise<MetricsListener> {
  const server: Server = createServer(
    { headersTimeout: config.headersTimeoutMs, requestTimeout: config.requestTimeoutMs, keepAliveTimeout: config.keepAliveTimeoutMs },
    (request, response) => {
      const path = (request.url ?? '').split('?')[0];
      if (path !== '/metrics') return response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed\n');
      registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
        () => response.writeHead(500, { 'content-type': 'text/plain' }).end('Could not collect the metrics\n'),
      );
    },
  );
  server.maxConnections = MAX_SCRAPE_CONNECTIONS;
  // A port in use stops the start, as the public port's would.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: config.host, port: config.metricsPort }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics`,
    close: async () => {
      const closed = once(server, 'close');
      server.close();
      server.closeIdleConnections();
      await closed;
    },
  };
}
