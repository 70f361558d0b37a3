import { describe, expect, it } from 'vitest';
import { EventHub } from '../../src/core/event-hub.ts';

// One instance's fan-out of live lesson events (src/core/event-hub.ts).

describe('EventHub', () => {
  it('hands each event to every subscriber of its key, in order, and none to other keys', async () => {
    const hub = new EventHub<string>();
    const a = hub.subscribe(1);
    const b = hub.subscribe(1);
    const other = hub.subscribe(2);
    hub.deliver(1, 'first');
    hub.deliver(1, 'second');
    hub.deliver(3, 'nobody');
    for (const subscriber of [a, b]) {
      expect(await subscriber.next()).toEqual({ value: 'first', done: false });
      expect(await subscriber.next()).toEqual({ value: 'second', done: false });
    }
    hub.deliver(2, 'elsewhere');
    expect(await other.next()).toEqual({ value: 'elsewhere', done: false });
  });

  it('resolves a waiting next() when an event comes, and ends it when its consumer returns', async () => {
    const hub = new EventHub<number>();
    const subscriber = hub.subscribe(7);
    const pending = subscriber.next();
    hub.deliver(7, 42);
    expect(await pending).toEqual({ value: 42, done: false });
    const waiting = subscriber.next();
    await subscriber.return!();
    expect(await waiting).toEqual({ value: undefined, done: true });
    hub.deliver(7, 43);
    expect(await subscriber.next()).toEqual({ value: undefined, done: true });
  });

  it('ends a subscriber that falls bufferSize events behind, and drops what it held; the others go on', async () => {
    const hub = new EventHub<number>(3);
    const slow = hub.subscribe(1);
    const fast = hub.subscribe(1);
    for (let event = 1; event <= 4; event += 1) {
      hub.deliver(1, event);
      expect(await fast.next()).toEqual({ value: event, done: false });
    }
    expect(await slow.next()).toEqual({ value: undefined, done: true });
  });

  it('a subscriber that joins late hears only what comes after', async () => {
    const hub = new EventHub<string>();
    hub.deliver(1, 'before');
    const late = hub.subscribe(1);
    hub.deliver(1, 'after');
    expect(await late.next()).toEqual({ value: 'after', done: false });
  });
});
