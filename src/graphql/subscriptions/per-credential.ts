// How many sockets each credential holds open on this instance (SUBSCRIPTION_CONNECTIONS_PER_TOKEN),
// counted by a hash of the credential (src/auth/credentials.ts, credentialsKey) so that no token is a key.

export class SocketsPerCredential {
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
