import { describe, expect, it } from 'vitest';
import { EventHub, type Stored } from '../../src/core/event-hub.ts';

// One instance's fan-out of positioned events, and the replay that joins the store to them (src/core/event-hub.ts).

type Event = { position: number; name?: string };
const at = (position: number): Event => ({ position });

/** A store of events by key, and the reads made of it (each a map of floors). */
function store(events: Record<number, number[]>) {
  const reads: Map<number, number>[] = [];
  const read = async (floors: ReadonlyMap<number, number>) => {
    reads.push(new Map(floors));
    const result = new Map<number, Stored<Event>>();
    for (const [key, floor] of floors) {
      const positions = events[key] ?? [];
      result.set(key, { events: positions.filter((p) => p > floor).map(at), latest: Math.max(0, ...positions) });
    }
    return result;
  };
  return { read, reads, events };
}

const take = async (iterator: AsyncIterator<Event>, count: number) => {
  const seen: number[] = [];
  for (let i = 0; i < count; i += 1) seen.push(((await iterator.next()).value as Event).position);
  return seen;
};

describe('EventHub', () => {
  it('hands each live event to every subscriber of its key, in order, once, and none to other keys', async () => {
    const hub = new EventHub<Event>();
    const a = hub.subscribe(1);
    const b = hub.subscribe(1);
    const other = hub.subscribe(2);
    for (const subscription of [a, b, other]) subscription.startLive(0);
    hub.deliver(1, at(1));
    hub.deliver(1, at(1));
    hub.deliver(1, at(2));
    hub.deliver(3, at(1));
    expect(await take(a.iterator, 2)).toEqual([1, 2]);
    expect(await take(b.iterator, 2)).toEqual([1, 2]);
    hub.deliver(2, at(1));
    expect(await take(other.iterator, 1)).toEqual([1]);
  });

  it('ends a subscriber that falls bufferSize events behind; the others go on', async () => {
    const hub = new EventHub<Event>(3);
    const slow = hub.subscribe(1);
    const fast = hub.subscribe(1);
    slow.startLive(0);
    fast.startLive(0);
    for (let position = 1; position <= 4; position += 1) {
      hub.deliver(1, at(position));
      expect(await take(fast.iterator, 1)).toEqual([position]);
    }
    expect(await slow.iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('a resumed subscriber holds its backlog still queued and bufferSize live events; once handed over, bufferSize only', async () => {
    const resume = async () => {
      const hub = new EventHub<Event>({ bufferSize: 3, read: store({ 1: [1, 2, 3, 4, 5] }).read });
      const subscription = hub.subscribe(1);
      expect(await subscription.startAfter(0, 5)).toBe('started');
      expect(await take(subscription.iterator, 2)).toEqual([1, 2]);
      return { hub, subscription };
    };
    // Three of its backlog still queued: room for them and three live events, not one more.
    const behind = await resume();
    for (let position = 6; position <= 9; position += 1) behind.hub.deliver(1, at(position));
    expect(await behind.subscription.iterator.next()).toEqual({ value: undefined, done: true });
    const reading = await resume();
    for (let position = 6; position <= 8; position += 1) reading.hub.deliver(1, at(position));
    expect(await take(reading.subscription.iterator, 6)).toEqual([3, 4, 5, 6, 7, 8]);
    // Its backlog handed over, it is ended three live events behind, as one that started live is.
    for (let position = 9; position <= 12; position += 1) reading.hub.deliver(1, at(position));
    expect(await reading.subscription.iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('keeps what comes between registering and starting, and drops what the start position covers', async () => {
    const hub = new EventHub<Event>();
    const late = hub.subscribe(1);
    hub.deliver(1, at(4));
    hub.deliver(1, at(5));
    late.startLive(4);
    hub.deliver(1, at(6));
    expect(await take(late.iterator, 2)).toEqual([5, 6]);
  });

  it('replays after a cursor then goes on live, with one read for every subscriber of the key', async () => {
    const { read, reads } = store({ 1: [1, 2, 3] });
    const hub = new EventHub<Event>({ read });
    const subscriptions = Array.from({ length: 20 }, () => hub.subscribe(1));
    const starts = subscriptions.map((subscription, index) => subscription.startAfter(index % 3, 3));
    // Committed and heard while the replay is being read: arrives once, after the replay.
    hub.deliver(1, at(4));
    expect(await Promise.all(starts)).toEqual(Array(20).fill('started'));
    hub.deliver(1, at(5));
    for (const [index, subscription] of subscriptions.entries())
      expect(await take(subscription.iterator, 5 - (index % 3))).toEqual([1, 2, 3, 4, 5].slice(index % 3));
    expect(reads).toHaveLength(1);
    // Later ones are served from what the key keeps, without a read.
    const later = hub.subscribe(1);
    expect(await later.startAfter(2, 5)).toBe('started');
    expect(await take(later.iterator, 3)).toEqual([3, 4, 5]);
    expect(reads).toHaveLength(1);
  });

  it('a resume that comes while its key is being read waits for that read, and events committed meanwhile reach it once', async () => {
    const { read, reads } = store({ 1: [1, 2] });
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const hub = new EventHub<Event>({ read: async (floors) => (await gate, read(floors)) });
    const first = hub.subscribe(1);
    const starting = first.startAfter(0, 2);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toHaveLength(0); // sent, not answered
    hub.deliver(1, at(3));
    const second = hub.subscribe(1);
    const secondStarting = second.startAfter(1, 3);
    release();
    expect(await Promise.all([starting, secondStarting])).toEqual(['started', 'started']);
    expect(await take(first.iterator, 3)).toEqual([1, 2, 3]);
    expect(await take(second.iterator, 2)).toEqual([2, 3]);
    expect(reads).toHaveLength(1);
  });

  it('answers expired when events after the cursor are gone from the store', async () => {
    const { read } = store({ 1: [4, 5] });
    const hub = new EventHub<Event>({ read });
    expect(await hub.subscribe(1).startAfter(2, 5)).toBe('expired');
    const current = hub.subscribe(1);
    expect(await current.startAfter(3, 5)).toBe('started');
    expect(await take(current.iterator, 2)).toEqual([4, 5]);
  });

  it('after a loss of the source, reads what was missed and hands it over before anything newer', async () => {
    const { read, events, reads } = store({ 1: [1] });
    const hub = new EventHub<Event>({ read });
    const subscription = hub.subscribe(1);
    subscription.startLive(0);
    hub.deliver(1, at(1));
    hub.lost();
    events[1]!.push(2, 3);
    hub.resumed();
    hub.deliver(1, at(4));
    expect(await take(subscription.iterator, 4)).toEqual([1, 2, 3, 4]);
    expect(reads).toHaveLength(1);
  });

  it('a gap in what it hears is read from the store', async () => {
    const { read, events } = store({ 1: [1, 2, 3] });
    const hub = new EventHub<Event>({ read });
    const subscription = hub.subscribe(1);
    subscription.startLive(1);
    hub.deliver(1, at(2));
    events[1]!.push(4);
    hub.deliver(1, at(4));
    expect(await take(subscription.iterator, 3)).toEqual([2, 3, 4]);
  });

  it('ends the subscribers of a key whose gap cannot be read, rather than skip it: they resume with after', async () => {
    const hub = new EventHub<Event>({
      read: () => Promise.reject(new Error('the database is down')),
    });
    const subscription = hub.subscribe(1);
    subscription.startLive(1);
    hub.deliver(1, at(2));
    hub.deliver(1, at(4));
    expect(await take(subscription.iterator, 1)).toEqual([2]);
    expect(await subscription.iterator.next()).toEqual({ value: undefined, done: true });
  });
});
