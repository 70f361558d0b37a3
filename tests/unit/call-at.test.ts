import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callAt, MAX_TIMER_DELAY_MS } from '../../src/core/call-at.ts';

// A call at a given time (src/core/call-at.ts): Node runs a timer whose delay is over 2^31-1 ms at once,
// so a long wait is made of shorter ones. Fake timers clamp such a delay as Node does.

const DAY_MS = 86_400_000;

beforeEach(() => void vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
afterEach(() => void vi.useRealTimers());

describe('callAt', () => {
  it('calls at the time, not before, also 30 days ahead (beyond the longest delay a timer takes)', () => {
    expect(30 * DAY_MS).toBeGreaterThan(MAX_TIMER_DELAY_MS);
    const called = vi.fn();
    callAt(new Date(Date.now() + 30 * DAY_MS), called);
    vi.advanceTimersByTime(1_000);
    expect(called).not.toHaveBeenCalled();
    vi.advanceTimersByTime(30 * DAY_MS - 1_000 - 1);
    expect(called).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(called).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60 * DAY_MS);
    expect(called).toHaveBeenCalledTimes(1);
  });

  it('calls at once (on the next turn) for a time already past, and at the time for a short wait', () => {
    const past = vi.fn();
    const soon = vi.fn();
    callAt(new Date(Date.now() - 5_000), past);
    callAt(new Date(Date.now() + 250), soon);
    expect(past).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(past).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(248);
    expect(soon).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(soon).toHaveBeenCalledTimes(1);
  });

  it('is cancelled by clearTimeout, before and after its first step', () => {
    const early = vi.fn();
    const late = vi.fn();
    clearTimeout(callAt(new Date(Date.now() + 30 * DAY_MS), early));
    const timer = callAt(new Date(Date.now() + 60 * DAY_MS), late);
    vi.advanceTimersByTime(40 * DAY_MS);
    clearTimeout(timer);
    vi.advanceTimersByTime(40 * DAY_MS);
    expect(early).not.toHaveBeenCalled();
    expect(late).not.toHaveBeenCalled();
  });
});
