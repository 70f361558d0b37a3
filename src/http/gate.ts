// The gate admission waits at (src/http/admission.ts): room for a budget of bytes, and a queue in
// arrival order, so that a large request waiting is never overtaken and cannot starve.

type Waiter = { weight: number; admit: (admitted: boolean) => void };
export type Ticket = { admitted: Promise<boolean>; leave: () => void };

/**
 * A semaphore over `capacity` units with a FIFO queue of at most `maxWaiting`. `enter` answers null when
 * the queue is full; otherwise a ticket whose `admitted` says whether room was found in time, and whose
 * `leave` gives the room back, or leaves the queue. Only the first `leave` counts.
 */
export function createGate(capacity: number, maxWaiting: number) {
  let used = 0;
  const waiting: Waiter[] = [];
  const pump = () => {
    while (waiting.length > 0 && used + waiting[0]!.weight <= capacity) {
      const next = waiting.shift()!;
      used += next.weight;
      next.admit(true);
    }
  };
  return {
    enter(weight: number, timeoutMs: number): Ticket | null {
      const roomNow = waiting.length === 0 && used + weight <= capacity;
      if (!roomNow && waiting.length >= maxWaiting) return null;
      let state: 'waiting' | 'held' | 'gone' = roomNow ? 'held' : 'waiting';
      const leave = () => {
        if (state === 'held') used -= weight;
        if (state === 'waiting') {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.admit(false);
        }
        state = 'gone';
        pump();
      };
      const waiter: Waiter = { weight, admit: () => {} };
      if (roomNow) {
        used += weight;
        return { admitted: Promise.resolve(true), leave };
      }
      const timer = setTimeout(leave, timeoutMs);
      const admitted = new Promise<boolean>((resolve) => {
        waiter.admit = (ok) => {
          clearTimeout(timer);
          if (ok) state = 'held';
          resolve(ok);
        };
      });
      waiting.push(waiter);
      return { admitted, leave };
    },
    waiting: () => waiting.length,
    used: () => used,
  };
}
