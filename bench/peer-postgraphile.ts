import { createServer } from 'node:http';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { reportStatements } from './statement-counter.ts';

// The peer (bench/README.md): PostGraphile 5 as its documentation runs it in production (Amber preset, one
// pg service, grafserv on node:http, NODE_ENV=production from the benchmark), the gateway's pool size, no
// auth. Needs Node >= 22 (bench/node-runtime.ts). Env: PORT, DATABASE_URL.

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
