import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { parseNumericId } from '../core/validation.ts';

// The platform's session cookie, resolved by asking its session webhook who holds it (docs/identity.md):
// only that cookie is sent, no redirect is followed, the answer waits at most a timeout, and its answers
// (a user, or no session) are remembered a while, by the cookie's SHA-256, never in clear.

export type SessionSettings = { url: string; cookieName: string; timeoutMs: number; cacheTtlMs: number };

export type SessionOutcome = { kind: 'user'; userId: number } | { kind: 'none' } | { kind: 'unavailable'; reason: string };
type Known = Exclude<SessionOutcome, { kind: 'unavailable' }>;

/** Answers kept at most, so that a flood of cookies cannot fill memory. */
const MAX_REMEMBERED = 10_000;

export function sessionWebhook({ url, cookieName, timeoutMs, cacheTtlMs }: SessionSettings) {
  const remembered = new LRUCache<string, Known>({ max: MAX_REMEMBERED });
  const asking = new Map<string, Promise<SessionOutcome>>();

  const ask = async (cookie: string, key: string): Promise<SessionOutcome> => {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { cookie: `${cookieName}=${cookie}` },
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      return { kind: 'unavailable', reason: (error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable' };
    }
    if (response.status === 401 || response.status === 403) return noSession(key);
    if (response.status !== 200) return { kind: 'unavailable', reason: `status ${response.status}` };
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return { kind: 'unavailable', reason: 'not JSON' };
    }
    const { userId, maxAge } = (body && typeof body === 'object' ? body : {}) as { userId?: unknown; maxAge?: unknown };
    if (userId === null) return noSession(key);
    const id = typeof userId === 'number' || typeof userId === 'string' ? parseNumericId(userId) : null;
    if (id === null) return { kind: 'unavailable', reason: 'no userId in the answer' };
    const ttl = typeof maxAge === 'number' && maxAge >= 0 ? Math.min(cacheTtlMs, maxAge * 1_000) : cacheTtlMs;
    const known: Known = { kind: 'user', userId: id };
    if (ttl > 0) remembered.set(key, known, { ttl });
    return known;
  };
  // "No session" is remembered as long as a session would be: a flood of unknown cookies, each sent again,
  // asks the platform once each (docs/identity.md, Counting callers).
  const noSession = (key: string): Known => {
    const known: Known = { kind: 'none' };
    if (cacheTtlMs > 0) remembered.set(key, known, { ttl: cacheTtlMs });
    return known;
  };
  const keyOf = (cookie: string) => hash('sha256', cookie, 'hex');

  /** Who holds the session cookie `cookie` (its value as sent): concurrent requests with one unknown cookie make one call. */
  const holder = (cookie: string): Promise<SessionOutcome> => {
    const key = keyOf(cookie);
    const known = remembered.get(key);
    if (known) return Promise.resolve(known);
    let pending = asking.get(key);
    if (!pending) {
      pending = ask(cookie, key).finally(() => asking.delete(key));
      asking.set(key, pending);
    }
    return pending;
  };
  /** Whether `holder(cookie)` would be answered from memory, without asking the platform. */
  const knows = (cookie: string): boolean => remembered.has(keyOf(cookie));
  return Object.assign(holder, { knows });
}
