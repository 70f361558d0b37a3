import type { Database } from '../db/client.ts';
import type { User } from '../generated/prisma/client.ts';

// An instance's memory of the tokens it verified a moment ago, so that a request with a token seen
// recently costs no database read. Correctness comes first (README, Performance; SECURITY.md):
// - the database itself says when a token stops being valid: triggers on access_tokens and users
//   (prisma/migrations/*_access_token_changes) send pg_notify on this channel in the writing transaction,
//   whatever wrote (token:revoke, an import, an operator's UPDATE, a user deleted), and every instance's
//   listener evicts when it hears it (at commit, give or take the time the notification takes to arrive);
// - that notification is the only way in, for an instance's own process too: no request path writes
//   tokens or users (resolvers only read them); the CLIs (src/cli/) write from a process of their own;
//   the demo data (src/demo/seed.ts) is only inserted, into a database with no users, before the app and
//   its cache exist (src/main.ts); and inserts invalidate nothing. A test that writes through the app's
//   own Prisma waits for the listener to hear its write (tests/kit/gateway.ts, `writeTokensOrUsers`);
// - while the listener is down those notifications are lost, so every 'lost' and 'listening' empties the
//   cache, and nothing is kept while not listening;
// - a read that raced an eviction is not kept (the generation below), and an entry lives at most `ttlMs`.
// Only tokens found valid are kept (an unknown token costs a read every time, and cannot fill memory),
// keyed by their SHA-256 as the database keys them.

/** The channel the triggers notify on: `token:<sha256>`, `user:<id>`, or `*` (a table was truncated). */
export const TOKEN_CHANGES_CHANNEL = 'access_token_changes';

type Entry = { user: User; expiresAt: Date | null; until: number };

export class TokenCache {
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

  /** The user of a token verified less than `ttlMs` ago, not evicted since and not expired at `now`. */
  get(tokenHash: string, now: Date): User | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.until <= now.getTime() || (entry.expiresAt && entry.expiresAt <= now)) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.user;
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
