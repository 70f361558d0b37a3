import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { withEnd } from '../src/graphql/subscriptions/iterators.ts';

// node --import tsx bench/fan-out-turns.ts [--subscribers N] [--work µs] [--rounds R]: one event heard by N
// subscriptions at once, each taking `work` µs of CPU for it, as executing and writing do; how long an HTTP
// request answered meanwhile waits, and when the last subscription has it. Consumed through withEnd (handed
// on DELIVERY_BATCH a turn) and straight from the source, alternately in one process (docs/performance.md).

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '10000' },
    work: { type: 'string', default: '30' },
    rounds: { type: 'string', default: '5' },
  },
});
const subscribers = Number(values.subscribers);
const workUs = Number(values.work);
const rounds = Number(values.rounds);

const spin = (us: number) => {
  const until = performance.now() + us / 1_000;
  while (performance.now() < until);
};

/** N subscriptions of one source; `deliver` hands an event to every one waiting. */
function audience(through: 'withEnd' | 'source') {
  const waiting: ((step: IteratorResult<number>) => void)[] = [];
  const state = { heard: 0, lastAt: 0 };
  for (let i = 0; i < subscribers; i += 1) {
    const source: AsyncIterableIterator<number> = {
      next: () => new Promise((resolve) => waiting.push(resolve)),
      [Symbol.asyncIterator]: () => source,
    };
    const events = through === 'withEnd' ? withEnd(source, () => {}) : source;
    void (async () => {
      for await (const event of events) {
        spin(workUs);
        JSON.stringify({ event });
        state.heard += 1;
        state.lastAt = performance.now();
      }
    })();
  }
  const deliver = (event: number) => {
    for (const resolve of waiting.splice(0)) resolve({ value: event, done: false });
  };
  return { state, deliver };
}

const server = createServer((_request, response) => response.end('ok'));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const ask = () =>
  new Promise<number>((resolve) => {
    const sent = performance.now();
    request({ host: '127.0.0.1', port }, (response) => response.resume().on('end', () => resolve(performance.now() - sent))).end();
  });

const audiences = { source: audience('source'), withEnd: audience('withEnd') };
const measured: Record<string, { answered: number[]; last: number[] }> = {
  source: { answered: [], last: [] },
  withEnd: { answered: [], last: [] },
};
for (let round = 0; round < rounds; round += 1)
  for (const name of ['source', 'withEnd'] as const) {
    const { state, deliver } = audiences[name];
    state.heard = 0;
    const answered = ask();
    // The request is on its way (a teacher's finish in flight) when the event comes.
    await new Promise((resolve) => setTimeout(resolve, 1));
    const start = performance.now();
    deliver(round);
    const waited = await answered;
    while (state.heard < subscribers) await new Promise((resolve) => setImmediate(resolve));
    measured[name]!.answered.push(Math.round(waited));
    measured[name]!.last.push(Math.round(state.lastAt - start));
  }
server.close();
for (const [name, { answered, last }] of Object.entries(measured))
  console.log(
    `${name}: ${subscribers} subscriptions, ${workUs} µs each; request answered after ${answered.join(', ')} ms; last subscription after ${last.join(', ')} ms`,
  );
process.exit(0);
