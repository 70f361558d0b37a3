import { describe, expect, it } from 'vitest';
import { createGate } from '../../src/http/gate.ts';

// Admission's gate (src/http/gate.ts): a budget of units, a bounded queue in arrival order, a bounded wait.

const settled = async <T>(promise: Promise<T>) => {
  let state: { value: T } | 'pending' = 'pending';
  void promise.then((value) => (state = { value }));
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('createGate', () => {
  it('admits at once while there is room, and gives the room back on leave (only the first leave counts)', async () => {
    const gate = createGate(10, 5);
    const a = gate.enter(6, 1_000)!;
    expect(await a.admitted).toBe(true);
    expect(gate.used()).toBe(6);
    a.leave();
    a.leave();
    expect(gate.used()).toBe(0);
  });

  it('queues in arrival order: a small request never overtakes a large one waiting', async () => {
    const gate = createGate(10, 5);
    const first = gate.enter(8, 1_000)!;
    const large = gate.enter(5, 1_000)!;
    const small = gate.enter(1, 1_000)!;
    expect(gate.waiting()).toBe(2);
    expect(await settled(small.admitted)).toBe('pending');
    first.leave();
    expect(await settled(large.admitted)).toEqual({ value: true });
    expect(await settled(small.admitted)).toEqual({ value: true });
    expect(gate.used()).toBe(6);
  });

  it('answers null when the queue is full, and not admitted when the wait times out (its place given up)', async () => {
    const gate = createGate(1, 1);
    const holder = gate.enter(1, 1_000)!;
    const waiter = gate.enter(1, 20)!;
    expect(gate.enter(1, 1_000)).toBeNull();
    expect(await waiter.admitted).toBe(false);
    expect(gate.waiting()).toBe(0);
    holder.leave();
    expect(gate.used()).toBe(0);
  });

  it('a request that leaves the queue lets the next one in when room comes', async () => {
    const gate = createGate(2, 5);
    const holder = gate.enter(2, 1_000)!;
    const gone = gate.enter(2, 1_000)!;
    const next = gate.enter(1, 1_000)!;
    gone.leave();
    expect(await gone.admitted).toBe(false);
    holder.leave();
    expect(await next.admitted).toBe(true);
    expect(gate.used()).toBe(1);
  });
});
