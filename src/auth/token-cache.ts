import type { Database } from '../db/client.ts';
import type { User } from '../generated/prisma/client.ts';

// An instance's memory of the tokens it verified a moment ago, so that a request with a recent token
// costs no database read. The database's own notifications evict; why that is enough, and what happens
// while the listener is down: docs/architecture.md, The token cache.

/** The channel the triggers notify on: `token:<sha256>`, `user:<id>`, or `*` (a table was truncated). */
export const TOKEN_CHANGES_CHANNEL = 'access_token_changes';

type Entry = { user: User; expiresAt: Date | null; until: number };

export class TokenCache {
  /**
   * Only tokens found valid (an unknown one cannot fill memory): the gateway's own by their SHA-256 as the
   * database keys them, verified JWTs by `jwt:` and theirs (src/auth/authenticator.ts). Both go with their user.
   */
  private readonly entries = new Map<string, Entry>();
  private listening = false;
  /** Moves on every eviction and every listener transition: a read begun before it is not kept. */
  private generation = 0;

  /** `ttlMs` 0 keeps nothing. */
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** A token verified less than `ttlMs` ago, not evicted since and not expired at `now`: its user, and its own expiry. */
  get(tokenHash: string, now: Date): { user: User; expiresAt: Date | null } | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.until <= now.getTime() || (entry.expiresAt && entry.expiresAt <= now)) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry;
  }

  /** Taken before reading a token from the database, and handed back to `keep`. */
  begin(): number {
    return this.generation;
  }

  /** Keeps a token just found valid, unless anything was evicted (or the listener moved) since `begin`. */
  keep(tokenHash: string, user: User, expiresAt: Date | null, begun: number, now: Date): void {
    if (!this.listening || this.ttlMs === 0 || begun !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, { user, expiresAt, until: now.getTime() + this.ttlMs });
  }

  /** A notification from the triggers. Anything unexpected empties the cache. */
  changed(payload: string): void {
    this.generation += 1;
    if (payload.startsWith('token:')) this.entries.delete(payload.slice('token:'.length));
    else if (/^user:\d+$/.test(payload)) {
      const userId = Number(payload.slice('user:'.length));
      for (const [hash, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(hash);
    } else this.entries.clear();
  }

  /** The listener's state: either way the cache starts empty, and it keeps nothing while not listening. */
  listenerState(state: 'lost' | 'listening'): void {
    this.generation += 1;
    this.entries.clear();
    this.listening = state === 'listening';
  }
}

/**
 * Keeps `cache` told of every token or user change the database notifies, on the instance's listening
 * connection; resolves once listening, with the function that stops it.
 */
export function listenForTokenChanges(database: Pick<Database, 'listen'>, cache: TokenCache): Promise<() => Promise<void>> {
  return database.listen(
    TOKEN_CHANGES_CHANNEL,
    (payload) => cache.changed(payload),
    (state) => cache.listenerState(state),
  );
}
