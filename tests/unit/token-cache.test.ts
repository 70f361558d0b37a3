import { describe, expect, it } from 'vitest';
import { TokenCache } from '../../src/auth/token-cache.ts';
import type { User } from '../../src/generated/prisma/client.ts';

// An instance's memory of verified tokens (src/auth/token-cache.ts): kept only while the listener hears the
// database, forgotten at once when the database says a token or its user changed.

const user = (id: number): User => ({ id, name: `User ${id}`, email: null, role: 'teacher', createdAt: new Date(0) });
const now = new Date('2026-01-01T00:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);

function listening(ttlMs = 5_000, maxEntries?: number) {
  const cache = new TokenCache(ttlMs, maxEntries);
  cache.listenerState('listening');
  return cache;
}
const keep = (cache: TokenCache, hash: string, who: User, expiresAt: Date | null = null) =>
  cache.keep(hash, who, expiresAt, cache.begin(), now);

describe('TokenCache', () => {
  it('remembers a verified token for its TTL, and never past the token’s own expiry', () => {
    const cache = listening();
    keep(cache, 'h1', user(1));
    keep(cache, 'h2', user(2), later(1_000));
    expect(cache.get('h1', later(4_999))?.user.id).toBe(1);
    expect(cache.get('h1', later(5_000))).toBeUndefined();
    expect(cache.get('h2', later(999))?.user.id).toBe(2);
    expect(cache.get('h2', later(1_000))).toBeUndefined();
  });

  it('keeps nothing before it listens, after it lost the listener, or with a TTL of 0', () => {
    const unheard = new TokenCache(5_000);
    keep(unheard, 'h', user(1));
    expect(unheard.get('h', now)).toBeUndefined();
    const cache = listening();
    keep(cache, 'h', user(1));
    cache.listenerState('lost');
    expect(cache.get('h', now)).toBeUndefined();
    keep(cache, 'h', user(1));
    expect(cache.size).toBe(0);
    const off = listening(0);
    keep(off, 'h', user(1));
    expect(off.size).toBe(0);
  });

  it('forgets the token named, every token of the user named, and everything on anything else', () => {
    const cache = listening();
    keep(cache, 'a', user(1));
    keep(cache, 'b', user(1));
    keep(cache, 'c', user(2));
    cache.changed('token:c');
    expect(cache.get('c', now)).toBeUndefined();
    expect(cache.size).toBe(2);
    cache.changed('user:1');
    expect(cache.size).toBe(0);
    keep(cache, 'd', user(3));
    cache.changed('*');
    expect(cache.size).toBe(0);
    keep(cache, 'e', user(3));
    cache.changed('something unexpected');
    expect(cache.size).toBe(0);
  });

  it('does not keep a read that began before an eviction or a listener transition', () => {
    const cache = listening();
    const begun = cache.begin();
    cache.changed('token:other');
    cache.keep('h', user(1), null, begun, now);
    expect(cache.get('h', now)).toBeUndefined();
    const again = cache.begin();
    cache.listenerState('listening');
    cache.keep('h', user(1), null, again, now);
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries, the oldest leaving first', () => {
    const cache = listening(5_000, 2);
    keep(cache, 'a', user(1));
    keep(cache, 'b', user(2));
    keep(cache, 'c', user(3));
    expect(cache.size).toBe(2);
    expect(cache.get('a', now)).toBeUndefined();
    expect(cache.get('c', now)?.user.id).toBe(3);
  });
});
