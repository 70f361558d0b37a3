import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../kit/gateway.ts';

// RATE_LIMIT_REDIS_URL: instances behind one load balancer share each caller's allowance through Redis
// (the machine's Redis at 127.0.0.1:6379, or TEST_REDIS_URL). Each run limits callers of its own (a
// random IP), so runs never meet each other's counters. A Redis that is down limits nobody: the lesson
// goes on.

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const settings = { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '1 minute' };

/** Whether Redis answers at `url` (asked once, up front, so that its absence skips rather than fails). */
async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2_000, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const redisUp = await redisAnswers(REDIS_URL);
const needsRedis = `needs Redis at ${REDIS_URL} (or TEST_REDIS_URL)${redisUp ? '' : ': none answers, skipped'}`;

const randomIp = () => `10.${[...randomBytes(3)].join('.')}`;
const get = (gateway: Gateway, ip: string) =>
  gateway.app.inject({ method: 'GET', url: '/api/v1/activities/uids_and_flags', remoteAddress: ip });

describe.skipIf(!redisUp)(`rate limit shared through Redis (${needsRedis})`, () => {
  let first: Gateway;
  let second: Gateway;
  beforeAll(async () => {
    [first, second] = await Promise.all([
      startGateway({ ...settings, RATE_LIMIT_REDIS_URL: REDIS_URL }),
      startGateway({ ...settings, RATE_LIMIT_REDIS_URL: REDIS_URL }),
    ]);
  }, 30_000);
  afterAll(() => Promise.all([first?.close(), second?.close()]));

  it('two instances count one caller together: the fourth request, on either, is 429', async () => {
    const ip = randomIp();
    expect((await get(first, ip)).statusCode).toBe(200);
    expect((await get(second, ip)).statusCode).toBe(200);
    expect((await get(first, ip)).statusCode).toBe(200);
    const limited = await get(second, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().meta.status).toBe('rate_limited');
    expect((await get(first, ip)).statusCode).toBe(429);
    // Another caller is not affected.
    expect((await get(second, randomIp())).statusCode).toBe(200);
  });
});

describe('RATE_LIMIT_REDIS_URL without Redis', () => {
  it('with Redis unreachable, requests are answered (not limited) rather than failed', async () => {
    const unreachable = await startGateway({ ...settings, RATE_LIMIT_REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const ip = randomIp();
      for (let i = 0; i < 5; i += 1) expect((await get(unreachable, ip)).statusCode).toBe(200);
    } finally {
      await unreachable.close();
    }
  });
});
