import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.ts';

// The routes a load balancer or orchestrator polls: never rate-limited, queued or traced, and answered
// while the server drains (SECURITY.md, Availability).

export const PROBE_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

export async function probeRoutes(app: FastifyInstance, { database }: { database: Pick<Database, 'ping'> }): Promise<void> {
  app.get('/healthz', () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
