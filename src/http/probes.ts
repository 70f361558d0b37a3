import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.ts';

// The routes a load balancer or orchestrator polls: never rate-limited, queued or traced, and answered
// while the server drains (SECURITY.md, Availability).

/** Liveness: the process answers. */
export const HEALTH_ROUTE = '/healthz';
/** Readiness: the database answers, and the server is not leaving or draining (src/http/drain.ts, which answers 503 then). */
export const READINESS_ROUTE = '/readyz';
export const PROBE_ROUTES: ReadonlySet<string> = new Set([HEALTH_ROUTE, READINESS_ROUTE]);

export async function probeRoutes(app: FastifyInstance, { database }: { database: Pick<Database, 'ping'> }): Promise<void> {
  app.get(HEALTH_ROUTE, () => ({ status: 'ok' }));
  app.get(READINESS_ROUTE, async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
