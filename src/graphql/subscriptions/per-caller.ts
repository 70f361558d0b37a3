// How many subscription connections (sockets and event streams together) each caller holds open on this
// instance (SUBSCRIPTION_CONNECTIONS_PER_TOKEN), counted by its caller key (src/auth/authenticator.ts): a
// token's hash, a user, or an IP for the anonymous; never a token.

import type { Viewer } from '../../auth/viewer.ts';

/** What a connection counts against: its caller, or its IP when anonymous (docs/contract.md, What a caller is). */
export function countedAs(viewer: Viewer, callerKey: string | undefined, ip: string): string | undefined {
  if (viewer.kind === 'user') return callerKey;
  return viewer.kind === 'anonymous' ? `ip:${ip}` : undefined;
}

/**
 * One connection's hold on a slot: made when the connection opens, before it is authenticated, and ended
 * by its close listener, so that however early the connection ends its slot is given back, or never taken.
 */
export type Slot = {
  /** Takes a slot of `key` for this connection: false when `key` already holds the most. Takes nothing once ended. */
  take(key: string): boolean;
  /** Whether the connection has ended (its slot, if it took one, given back). */
  readonly ended: boolean;
  /** Gives the slot back; called again, does nothing. */
  end(): void;
};

export class ConnectionsPerCaller {
  private readonly held = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** A slot for a connection that has just opened (see Slot). */
  slot(): Slot {
    return new CallerSlot(this.held, this.max);
  }
}

/** A Slot as a class: a connection holds it for its whole life (docs/performance.md). */
class CallerSlot implements Slot {
  private key: string | undefined;
  ended = false;

  constructor(
    private readonly counts: Map<string, number>,
    private readonly max: number,
  ) {}

  take(wanted: string): boolean {
    if (this.ended || this.key !== undefined) return true;
    const count = this.counts.get(wanted) ?? 0;
    if (count >= this.max) return false;
    this.counts.set(wanted, count + 1);
    this.key = wanted;
    return true;
  }

  end(): void {
    this.ended = true;
    if (this.key === undefined) return;
    const count = (this.counts.get(this.key) ?? 1) - 1;
    if (count <= 0) this.counts.delete(this.key);
    else this.counts.set(this.key, count);
    this.key = undefined;
  }
}
