import pg from 'pg';

// Statements per request for the baseline and the peer: every query their pg client sends is counted
// (pg_stat_statements is not loaded on a default server) and sent to the benchmark over IPC
// (bench/processes.ts). The gateway's own counter is read in-process instead (bench/measure.ts).

export const STATEMENTS_MESSAGE = 'statements';

export function reportStatements(): void {
  let statements = 0;
  const query = pg.Client.prototype.query;
  // Any query: simple or extended protocol, prepared or not, BEGIN and COMMIT included.
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements += 1;
    return (query as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  process.on('message', (message) => {
    if (message === STATEMENTS_MESSAGE) process.send?.({ statements });
  });
}
