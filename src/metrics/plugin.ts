import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { listenForScrapes, type MetricsListener } from './listener.ts';
import type { Metrics, MetricSources } from './metrics.ts';

// Prometheus metrics, only with METRICS_PORT: what they watch, and GET /metrics served on that port alone,
// up with the app (before it listens, so a port in use stops the start) and down with it.

export function serveMetrics(app: FastifyInstance, metrics: Metrics, config: Config, sources: MetricSources): void {
  metrics.watch(sources);
  let listener: MetricsListener | undefined;
  app.addHook('onReady', async () => {
    listener = await listenForScrapes(metrics.registry, config);
    app.log.info({ url: listener.url }, 'metrics: serving GET /metrics');
  });
  app.addHook('onClose', async () => listener?.close());
}
