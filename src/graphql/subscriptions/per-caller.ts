// How many subscription connections (sockets and event streams together) each caller holds open on this
// instance (SUBSCRIPTION_CONNECTIONS_PER_TOKEN), counted by its caller key (src/auth/authenticator.ts): a
// token's hash, or its user for a JWT or a session; never a token.

export class ConnectionsPerCaller {
  private readonly held = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes one for `key`; false when it already holds `max`. */
  take(key: string): boolean {
    const held = this.held.get(key) ?? 0;
    if (held >= this.max) return false;
    this.held.set(key, held + 1);
    return true;
  }

  release(key: string): void {
    const held = (this.held.get(key) ?? 1) - 1;
    if (held <= 0) this.held.delete(key);
    else this.held.set(key, held);
  }
}
