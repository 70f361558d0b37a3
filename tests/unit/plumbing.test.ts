import { describe, expect, it } from 'vitest';
import { byKey, groupByKey, perRequest, type RequestScope } from '../../src/core/load.ts';
import { DELIVERY_BATCH, stoppable, withEnd } from '../../src/graphql/subscriptions/iterators.ts';
import { ConnectionsPerCaller } from '../../src/graphql/subscriptions/per-caller.ts';
import { acceptsEventStream } from '../../src/graphql/subscriptions/sse.ts';

// Small pieces the request path relies on: loader answers in key order, per-request values, the end of a
// subscription's iterator, the cap on sockets per credential, and which Accept asks for an event stream.

describe('loader helpers', () => {
  it('answer in the order of the keys, null or empty where nothing matched', () => {
    const rows = [
      { id: 2, of: 1 },
      { id: 1, of: 1 },
      { id: 3, of: 3 },
    ];
    expect(byKey([3, 9, 1], rows, (row) => row.id)).toEqual([rows[2], null, rows[1]]);
    expect(groupByKey([1, 2, 3], rows, (row) => row.of)).toEqual([[rows[0], rows[1]], [], [rows[2]]]);
  });

  it('make a per-request value once per request, on first use', () => {
    let made = 0;
    const value = perRequest((request: { scope: RequestScope }) => ({ n: (made += 1), request }));
    const first = { scope: new Map() };
    const second = { scope: new Map() };
    expect(made).toBe(0);
    expect(value(first)).toBe(value(first));
    expect(value(second).n).toBe(2);
    expect(made).toBe(2);
  });
});

describe('withEnd', () => {
  async function* counting() {
    yield 1;
    yield 2;
  }

  it('calls onEnd once when the iterator finishes, when it is returned early, or when it throws', async () => {
    let ends = 0;
    const finished = withEnd(counting(), () => (ends += 1));
    expect([await finished.next(), await finished.next(), await finished.next()].map((step) => step.done)).toEqual([false, false, true]);
    await finished.return!();
    expect(ends).toBe(1);
    const returned = withEnd(counting(), () => (ends += 1));
    await returned.next();
    await returned.return!();
    expect(ends).toBe(2);
    const broken: AsyncIterableIterator<number> = { next: () => Promise.reject(new Error('x')), [Symbol.asyncIterator]: () => broken };
    const failing = withEnd(broken, () => (ends += 1));
    await expect(failing.next()).rejects.toThrow('x');
    expect(ends).toBe(3);
  });
});

describe('withEnd, many subscriptions hearing one event', () => {
  it('hands it on to DELIVERY_BATCH of them a turn of the event loop, in the order it came, every one of them', async () => {
    const count = DELIVERY_BATCH * 2 + 1;
    const heard: number[] = [];
    let turns = 0;
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    const source = (n: number): AsyncIterableIterator<number> => {
      const once = { next: () => Promise.resolve({ value: n, done: false }), [Symbol.asyncIterator]: () => once };
      return once;
    };
    const steps = Array.from({ length: count }, (_, n) =>
      withEnd(source(n), () => {})
        .next()
        .then((step) => heard.push(step.value)),
    );
    // Each turn of the event loop lets one more batch through (without the batches, all in the first).
    while (heard.length < count) {
      await turn();
      turns += 1;
    }
    await Promise.all(steps);
    expect(heard).toEqual(Array.from({ length: count }, (_, n) => n));
    expect(turns).toBeGreaterThanOrEqual(2);
  });
});

describe('stoppable', () => {
  /** An iterator whose next() waits until `push` gives it a value; return() ends it, as the EventHub's does. */
  function waiting() {
    let resolve: ((step: IteratorResult<number>) => void) | undefined;
    let returned = 0;
    const iterator: AsyncIterableIterator<number> = {
      next: () => new Promise((settle) => (resolve = settle)),
      return: async () => {
        returned += 1;
        resolve?.({ value: undefined, done: true });
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return { iterator, push: (value: number) => resolve?.({ value, done: false }), returned: () => returned };
  }

  it('passes the events on until stopped; a pending next() then gets the last value given, then the end', async () => {
    const source = waiting();
    const iterator = stoppable(source.iterator);
    const stop = (last?: number) => iterator.stop(last);
    const first = iterator.next();
    source.push(1);
    expect(await first).toEqual({ value: 1, done: false });
    const pending = iterator.next();
    stop(99);
    expect(await pending).toEqual({ value: 99, done: false });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    expect(source.returned()).toBe(1);
    stop(100);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('keeps the last value given while no next() is pending (its consumer busy with the event before), for the next next()', async () => {
    const source = waiting();
    const iterator = stoppable(source.iterator);
    const first = iterator.next();
    source.push(1);
    expect(await first).toEqual({ value: 1, done: false });
    // Stopped between two next()s, as a stream's JWT lapses while its last event is being written.
    iterator.stop(99);
    expect(await iterator.next()).toEqual({ value: 99, done: false });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('ends at once when stopped with no last value, and returns its source when its consumer returns', async () => {
    const source = waiting();
    const stopped = stoppable(source.iterator);
    const pending = stopped.next();
    stopped.stop();
    expect(await pending).toEqual({ value: undefined, done: true });
    const other = waiting();
    const returned = stoppable(other.iterator);
    await returned.return();
    expect(other.returned()).toBe(1);
    expect(await returned.next()).toEqual({ value: undefined, done: true });
  });
});

describe('ConnectionsPerCaller', () => {
  it('lets each caller hold up to its max, and one more once one ends; a slot ended twice gives back one', () => {
    const callers = new ConnectionsPerCaller(2);
    const [a1, a2, a3, b1] = [callers.slot(), callers.slot(), callers.slot(), callers.slot()];
    expect([a1.take('a'), a2.take('a'), a3.take('a'), b1.take('b')]).toEqual([true, true, false, true]);
    a1.end();
    expect(a3.take('a')).toBe(true);
    b1.end();
    b1.end();
    const bs = [callers.slot(), callers.slot(), callers.slot()];
    expect(bs.map((slot) => slot.take('b'))).toEqual([true, true, false]);
  });

  it('a slot ended before its caller is known takes nothing', () => {
    const callers = new ConnectionsPerCaller(1);
    const gone = callers.slot();
    gone.end();
    expect(gone.take('a')).toBe(true);
    expect(gone.ended).toBe(true);
    expect(callers.slot().take('a')).toBe(true);
  });
});

describe('acceptsEventStream', () => {
  it('takes an Accept that lists text/event-stream, alone or among others, in any case, unless with q=0', () => {
    for (const accept of [
      'text/event-stream',
      'Text/Event-Stream',
      'text/event-stream, application/json;q=0.5',
      'application/json, text/event-stream;q=0.9',
    ])
      expect(acceptsEventStream(accept), accept).toBe(true);
    for (const accept of [undefined, '', '*/*', 'application/json', 'text/event-stream;q=0', 'text/event-stream-x', 'text/plain'])
      expect(acceptsEventStream(accept), String(accept)).toBe(false);
  });
});
