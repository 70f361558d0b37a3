// Calls a function at a given time, however far ahead: Node runs a timer whose delay is over 2^31-1 ms
// (~24.8 days) at once. A longer wait is made of equal steps under that bound, on one timer (refreshed
// at each step), so that clearTimeout cancels it as it cancels setTimeout's.

/** The longest delay Node's timers honour. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * Calls `callback` at `when` (on the next turn if it has passed; a wait longer than MAX_TIMER_DELAY_MS
 * may end a few milliseconds late, never early). Cancel it with `clearTimeout`.
 */
export function callAt(when: Date, callback: () => void): NodeJS.Timeout {
  const delay = Math.max(0, when.getTime() - Date.now());
  let stepsLeft = Math.max(1, Math.ceil(delay / MAX_TIMER_DELAY_MS));
  const timer: NodeJS.Timeout = setTimeout(
    () => {
      stepsLeft -= 1;
      if (stepsLeft > 0) timer.refresh();
      else callback();
    },
    Math.ceil(delay / stepsLeft),
  );
  return timer;
}
