import { createServer } from 'node:http';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { reportStatements } from './statement-counter.ts';

// The peer: PostGraphile 5, the GraphQL API generated from the same database, run as its documentation
// says for production — the Amber preset, one pg service (makePgService) on the benchmark's database,
// grafserv on node:http, no GraphiQL, no explain, no watch mode, NODE_ENV=production (set by the
// benchmark: Grafast plans in production mode). The same pool size as the gateway's. It has no auth:
// the issue compares the gateway with its Bearer-token auth on against PostGraphile with none.
// Needs Node >= 22 (bench/node-runtime.ts). Env: PORT, DATABASE_URL.

reportStatements();

const preset: GraphileConfig.Preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString: process.env.DATABASE_URL, schemas: ['public'], poolConfig: { max: 10 } })],
  // outputDataAsString: Grafast writes the JSON text as it executes; measured faster here (bench/README.md).
  grafserv: { graphiql: false, watch: false, websockets: false, outputDataAsString: true },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
await serv.addTo(server);
// Built now rather than on the first request, so that readiness means the schema is there.
await pgl.getSchema();
server.listen(Number(process.env.PORT), '127.0.0.1');

const stop = () => {
  server.close(() => void Promise.resolve(pgl.release()).finally(() => process.exit(0)));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
