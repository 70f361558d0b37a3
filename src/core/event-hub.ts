// One instance's fan-out of events heard once (a database notification) to every subscriber of a key,
// in the order delivered, each through a bounded queue: a subscriber that falls too far behind is ended
// rather than let memory grow (its client reads the state again and subscribes again).

/** A subscriber's queue holds at most this many undelivered events by default. */
export const SUBSCRIBER_BUFFER = 256;

type Subscriber<Event> = { push(event: Event): void };

export class EventHub<Event = unknown> {
  private readonly subscribers = new Map<number, Set<Subscriber<Event>>>();

  /**
   * `beforeDeliver` is told of each event about to reach subscribers, before any does: what this instance then
   * reads of `key` must show at least that state (src/db/replicas.ts, `delivered`).
   */
  constructor(
    private readonly bufferSize = SUBSCRIBER_BUFFER,
    private readonly beforeDeliver?: (key: number, event: Event) => void,
  ) {}

  /** Queues `event` for every subscriber of `key` at this moment. */
  deliver(key: number, event: Event): void {
    const set = this.subscribers.get(key);
    if (set?.size) this.beforeDeliver?.(key, event);
    if (set) for (const subscriber of [...set]) subscriber.push(event);
  }

  /**
   * The events of `key` from now on. The iterator ends when its consumer returns, or when it falls
   * `bufferSize` events behind.
   */
  subscribe(key: number): AsyncIterableIterator<Event> {
    const queue: Event[] = [];
    let waiting: ((result: IteratorResult<Event>) => void) | null = null;
    let ended = false;
    const set = this.subscribers.get(key) ?? new Set<Subscriber<Event>>();
    this.subscribers.set(key, set);

    const end = () => {
      if (ended) return;
      ended = true;
      queue.length = 0;
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(key) === set) this.subscribers.delete(key);
      waiting?.({ value: undefined, done: true });
      waiting = null;
    };
    const subscriber: Subscriber<Event> = {
      push: (event) => {
        if (ended) return;
        if (waiting) {
          const resolve = waiting;
          waiting = null;
          resolve({ value: event, done: false });
        } else if (queue.length >= this.bufferSize) end();
        else queue.push(event);
      },
    };
    set.add(subscriber);

    const iterator: AsyncIterableIterator<Event> = {
      next: () => {
        if (queue.length > 0) return Promise.resolve({ value: queue.shift()!, done: false });
        if (ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (waiting = resolve));
      },
      return: () => {
        end();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }
}
