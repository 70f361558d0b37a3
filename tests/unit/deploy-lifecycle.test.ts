import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { spreadOver } from '../../src/http/drain.ts';

// A rolling deploy's settings (docs/operations.md, A rolling deploy) and the spread of the drain's closes
// (src/http/drain.ts); the lifecycle as a client sees it: tests/system/live-lessons/deploy.test.ts.

describe('SHUTDOWN_DELAY and SHUTDOWN_SPREAD', () => {
  it('default to no delay and a 5 s spread, and read durations as the other settings do', () => {
    expect(loadConfig({})).toMatchObject({ shutdownDelayMs: 0, shutdownSpreadMs: 5_000 });
    expect(loadConfig({ SHUTDOWN_DELAY: '10s', SHUTDOWN_SPREAD: '0' })).toMatchObject({ shutdownDelayMs: 10_000, shutdownSpreadMs: 0 });
    expect(loadConfig({ SHUTDOWN_DELAY: '1 minute', SHUTDOWN_SPREAD: '1500ms' })).toMatchObject({
      shutdownDelayMs: 60_000,
      shutdownSpreadMs: 1_500,
    });
  });

  it('stop the start on a bad value, naming it', () => {
    expect(() => loadConfig({ SHUTDOWN_DELAY: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ SHUTDOWN_DELAY: 'soon' })).toThrow(/SHUTDOWN_DELAY="soon": expected milliseconds/);
    expect(() => loadConfig({ SHUTDOWN_SPREAD: '1 hour' })).toThrow(/SHUTDOWN_SPREAD="1 hour": must be from 0 to 10 minutes/);
    expect(() => loadConfig({ SHUTDOWN_DELAY: '-1' })).toThrow(/SHUTDOWN_DELAY="-1"/);
  });
});

describe('spreadOver', () => {
  it('with no spread, closes everything at once', () => {
    const closed: number[] = [];
    void spreadOver([1, 2, 3], 0, (item) => closed.push(item));
    expect(closed).toEqual([1, 2, 3]);
  });

  it('closes the first at once and the others in order, one spread/n apart', async () => {
    const began = Date.now();
    const closedAt: [number, number][] = [];
    const done = spreadOver([0, 1, 2, 3], 400, (item) => closedAt.push([item, Date.now() - began]));
    expect(closedAt.map(([item]) => item)).toEqual([0]);
    await done;
    expect(closedAt.map(([item]) => item)).toEqual([0, 1, 2, 3]);
    // Never earlier than its share of the spread (a timer may fire a millisecond early); later under load.
    for (const [item, at] of closedAt) expect(at).toBeGreaterThanOrEqual(item * 100 - 2);
  });
});
