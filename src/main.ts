import { setFlagsFromString } from 'node:v8';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DataFolderInUseError, ListenerDeafError, openDatabase } from './db/client.ts';
import { seedDemoData } from './demo/seed.ts';
import type { Lifecycle } from './http/drain.ts';
import { startTracing } from './telemetry/sdk.ts';
import type { Tracing } from './telemetry/tracing.ts';

// Start: read config, open the database (migrating it), load demo data on an empty one, listen, and shut
// down cleanly on SIGTERM/SIGINT.

async function main(): Promise<void> {
  const config = loadConfig();
  // Before the database and the server exist, so that their work is traced. Only with an OTLP endpoint:
  // without one no OpenTelemetry module is loaded (docs/architecture.md, Tracing).
  const tracing = config.tracesEndpoint ? await startTracing() : undefined;
  if (config.databaseUrl) {
    // On a PostgreSQL server the only WebAssembly here is Prisma's query compiler: compiled lazily, by V8's
    // baseline compiler only, it keeps less resident at the same query speed (docs/performance.md). Not with
    // PGlite, whose whole database engine is WebAssembly and wants the optimizer.
    setFlagsFromString('--wasm-lazy-compilation');
    setFlagsFromString('--liftoff-only');
  }
  const database = await openDatabase({ ...config, tracing });
  const demo = config.demoData ? await seedDemoData(database.prisma) : null;
  const lifecycle: Lifecycle = { leaving: false, draining: false };
  const app = await buildApp({ config, database, lifecycle, tracing });

  const stop = shutdown({ app, database, lifecycle, config, tracing });
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const server = config.databaseDirectUrl ? 'PostgreSQL server, queries through a pooler' : 'PostgreSQL server';
  const where = config.databaseUrl ? server : `embedded PostgreSQL in ${config.dataDir}`;
  const lines = [
    `Lessons gateway on ${address} (${where})`,
    `  GraphQL:   ${address}/graphql${config.playground ? ' (open it in a browser for the playground)' : ''}`,
    `  REST:      ${address}/api/v1/activities/uids_and_flags (documented at ${address}/api/v1/docs)`,
    `  Health:    ${address}/healthz, ${address}/readyz`,
  ];
  if (config.tracesEndpoint) lines.push(`  Traces:    sent to ${config.tracesEndpoint} (OpenTelemetry)`);
  if (demo)
    lines.push(
      `  Demo data loaded. A demo teacher's token: ${demo.teacherToken}`,
      `    curl -H 'Authorization: Bearer ${demo.teacherToken}' ${address}/api/v1/classroom_activities/${demo.classroomActivityId}/student_names`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** A SHUTDOWN_GRACE_MS after the delay and the spread, a shutdown still running ends the process at once. */
const SHUTDOWN_GRACE_MS = 25_000;

type Running = {
  app: Awaited<ReturnType<typeof buildApp>>;
  database: Awaited<ReturnType<typeof openDatabase>>;
  lifecycle: Lifecycle;
  config: Config;
  tracing: Tracing | undefined;
};

// Graceful (docs/operations.md, A rolling deploy): /readyz answers 503 at once, everything else is served for
// SHUTDOWN_DELAY (the balancer stops sending meanwhile); then the drain: stop listening, answer 503 to
// requests on kept-alive connections, close the sockets and end the streams spread over SHUTDOWN_SPREAD,
// let in-flight requests finish, close the database. A second signal, or a shutdown still running
// SHUTDOWN_GRACE_MS after the delay and the spread, ends the process at once.
function shutdown({ app, database, lifecycle, config, tracing }: Running): (signal: string) => Promise<void> {
  let stopping = false;
  return async (signal: string) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    lifecycle.leaving = true;
    let step = 'waiting SHUTDOWN_DELAY';
    setTimeout(
      () => {
        app.log.error({ step }, 'shutdown did not finish in time: exiting');
        process.exit(1);
      },
      config.shutdownDelayMs + config.shutdownSpreadMs + SHUTDOWN_GRACE_MS,
    ).unref();
    if (config.shutdownDelayMs > 0) {
      app.log.info({ signal, delayMs: config.shutdownDelayMs }, 'shutting down: not ready, serving on for SHUTDOWN_DELAY');
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
    }
    lifecycle.draining = true;
    app.log.info({ signal, spreadMs: config.shutdownSpreadMs }, 'shutting down: draining in-flight requests');
    // Each step is logged with its duration, so a slow or failed shutdown says where it stopped.
    const began = Date.now();
    step = 'closing the HTTP server';
    try {
      await app.close();
      app.log.info({ ms: Date.now() - began }, 'HTTP server closed');
      step = 'closing the database';
      await database.close();
      if (tracing) {
        // The spans of the last requests are still buffered: sent now, or lost with the process.
        step = 'sending the last spans';
        await tracing.shutdown();
      }
      app.log.info({ ms: Date.now() - began }, 'shut down');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error, step }, 'shutdown failed');
      process.exit(1);
    }
  };
}

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof ConfigError
      ? `${error.message}\n`
      : error instanceof ListenerDeafError || error instanceof DataFolderInUseError
        ? `Could not start: ${error.message}\n`
        : `Could not start: ${(error as Error).stack ?? String(error)}\n`,
  );
  process.exit(1);
});
