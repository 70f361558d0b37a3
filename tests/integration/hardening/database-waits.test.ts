import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';

// A wait on the database is bounded (DATABASE_STATEMENT_TIMEOUT): a transaction that cannot start (PGlite's
// one connection is held: Prisma's P2028), a statement that waits on a lock another transaction holds (a
// server). The request is 503 `unavailable` with Retry-After, never a 500 and never a wait without end.
// The stalled network is tests/system/hardening/database-stall.test.ts.

describe('a wait on the database', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({ DATABASE_STATEMENT_TIMEOUT: '1s', TOKEN_CACHE_TTL: '1 minute' });
  });
  afterAll(() => gateway?.close());

  const publish = () =>
    gateway.app.inject({ method: 'POST', url: '/api/v1/published_edition', headers: { authorization: `Bearer ${tokens.owner}` } });

  it('is 503 unavailable with Retry-After past DATABASE_STATEMENT_TIMEOUT, and the next request is served', async () => {
    // The token is known before the database is held (the token cache keeps it a minute).
    expect((await gateway.rest('GET', '/api/v1/classroom_activities/100/student_names', { token: tokens.owner })).status).toBe(200);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = gateway.database.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe('LOCK TABLE objectives IN EXCLUSIVE MODE');
        locked();
        await released;
      },
      { timeout: 60_000 },
    );
    await isLocked;
    // Without a bound the request would wait for the holder, which lets go only after 20 s.
    const giveUp = setTimeout(release, 20_000);
    try {
      const answer = await publish();
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toEqual(expect.any(String));
      expect(answer.json().meta.status).toBe('unavailable');
    } finally {
      clearTimeout(giveUp);
      release();
      await holder;
    }
    expect((await publish()).statusCode).toBe(200);
  });

  // PGlite runs one statement or transaction at a time: a token check and /readyz wait behind a transaction.
  it.skipIf(process.env.DATABASE_URL)(
    'bounds a token check and /readyz waiting behind a transaction on the embedded database',
    async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const isStarted = new Promise<void>((resolve) => (started = resolve));
      const holder = gateway.database.prisma.$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe('SELECT 1');
          started();
          await released;
        },
        { timeout: 60_000 },
      );
      await isStarted;
      const giveUp = setTimeout(release, 20_000);
      try {
        const [ready, signedIn] = await Promise.all([
          gateway.app.inject({ method: 'GET', url: '/readyz' }),
          // Not cached: the staff token has not been used yet.
          gateway.app.inject({
            method: 'GET',
            url: '/api/v1/classroom_activities/100/student_names',
            headers: { authorization: `Bearer ${tokens.staff}` },
          }),
        ]);
        expect(ready.statusCode).toBe(503);
        expect(signedIn.statusCode).toBe(503);
        expect(signedIn.headers['retry-after']).toEqual(expect.any(String));
      } finally {
        clearTimeout(giveUp);
        release();
        await holder;
      }
      expect((await gateway.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    },
  );
});
