// Async iterators as the transports consume them (graphql-ws, graphql-sse): a subscription's events.
import { setImmediate } from 'node:timers';

/** The same iterator, calling `onEnd` once when it ends, however it ends (see WithEnd). */
export function withEnd<T>(iterator: AsyncIterableIterator<T>, onEnd: () => void): AsyncIterableIterator<T> {
  return new WithEnd(iterator, onEnd);
}

/**
 * An object, not an async generator, so that return() is never queued behind a pending next(); a class, so
 * that its methods are shared by every subscription rather than made for each.
 */
class WithEnd<T> implements AsyncIterableIterator<T> {
  private onEnd: (() => void) | undefined;

  constructor(
    private readonly iterator: AsyncIterableIterator<T>,
    onEnd: () => void,
  ) {
    this.onEnd = onEnd;
  }

  // Not an async function: a subscription waits on next() for its whole life, and a suspended async
  // function keeps its frame (docs/performance.md, Over Server-Sent Events).
  next(): Promise<IteratorResult<T>> {
    return this.iterator.next().then(
      (step) => (step.done ? (this.end(), step) : inTurn(step)),
      (error: unknown) => {
        this.end();
        throw error;
      },
    );
  }

  async return(value?: unknown): Promise<IteratorResult<T>> {
    this.end();
    return (await this.iterator.return?.(value)) ?? { value: undefined, done: true };
  }

  async throw(error?: unknown): Promise<IteratorResult<T>> {
    this.end();
    if (this.iterator.throw) return this.iterator.throw(error);
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Calls onEnd the first time only. */
  private end(): void {
    const onEnd = this.onEnd;
    this.onEnd = undefined;
    onEnd?.();
  }
}

/** Events handed on per turn of the event loop, across all subscriptions, before the others wait for the next. */
export const DELIVERY_BATCH = 256;
const waitingTurn: (() => void)[] = [];
/** Events handed on since the last turn began; a turn is scheduled while any were. */
let handed = 0;
let scheduled = false;

/**
 * Resolves with `value` once it is its turn: at most DELIVERY_BATCH events a turn of the event loop, in the
 * order they came, so that an event heard by thousands of subscribers lets the requests in between (the
 * teacher's finish) run between batches.
 */
function inTurn<V>(value: V): V | Promise<V> {
  if (waitingTurn.length === 0 && handed < DELIVERY_BATCH) {
    handed += 1;
    if (!scheduled) {
      scheduled = true;
      setImmediate(nextTurn);
    }
    return value;
  }
  return new Promise((resolve) => waitingTurn.push(() => resolve(value)));
}

function nextTurn(): void {
  handed = 0;
  scheduled = false;
  for (const handOn of waitingTurn.splice(0, DELIVERY_BATCH)) {
    handed += 1;
    handOn();
  }
  if (handed > 0) {
    scheduled = true;
    setImmediate(nextTurn);
  }
}

/** The same iterator, which its owner may end while its consumer waits on next() (a stream's end at shutdown, or at its JWT's expiry). */
export function stoppable<T>(source: AsyncIterableIterator<T>): Stoppable<T> {
  return new Stoppable(source);
}

/** The iterator stoppable() gives: a class, so that its methods are shared by every stream rather than made for each. */
export class Stoppable<T> implements AsyncIterableIterator<T> {
  private stopped = false;
  private last: { value: T } | undefined;
  /** Settles the next() that is waiting, if one is, with the end (one slot: nothing piles up on a long stream). */
  private wake: (() => void) | undefined;

  constructor(private readonly source: AsyncIterableIterator<T>) {}

  next(): Promise<IteratorResult<T>> {
    if (this.stopped) return Promise.resolve(this.finish());
    return new Promise<IteratorResult<T>>((resolve, reject) => {
      const wake = (this.wake = () => resolve(this.finish()));
      this.source
        .next()
        // Once its source has answered, this next() waits no more: a stop() before the next one keeps `last` for that one.
        .finally(() => this.wake === wake && (this.wake = undefined))
        .then(
          // An event that came as it was stopped is not sent: the stream is ending.
          (step) => resolve(this.stopped ? this.finish() : step),
          reject,
        );
    });
  }

  async return(): Promise<IteratorResult<T>> {
    this.stopped = true;
    this.last = undefined;
    this.wake?.();
    return (await this.source.return?.()) ?? { value: undefined, done: true };
  }

  async throw(error?: unknown): Promise<IteratorResult<T>> {
    this.stopped = true;
    this.wake?.();
    if (this.source.throw) return this.source.throw(error);
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Ends the iterator from outside: its pending or next next() gets `last` (when given), then it is done. */
  stop(last?: T): void {
    if (this.stopped) return;
    this.stopped = true;
    if (last !== undefined) this.last = { value: last };
    this.wake?.();
    // Its end is logged by withEnd; a source that fails to end has nothing left to send.
    void Promise.resolve(this.source.return?.()).catch(() => {});
  }

  private finish(): IteratorResult<T> {
    if (!this.last) return { value: undefined, done: true };
    const { value } = this.last;
    this.last = undefined;
    return { value, done: false };
  }
}
