// The public catalogue's version in memory, from which public reads' HTTP tags are made: kept while the
// listener hears every change, else read again. The row, its trigger and its channel belong to the activities
// module (src/modules/activities/catalogue-version.ts). Why a tag stays right: docs/operations.md.

const isVersion = (value: string) => /^\d{1,19}$/.test(value);

export class CatalogueVersion {
  /** The latest version heard or read while listening; undefined whenever it cannot be vouched for. */
  private known: string | undefined;
  private listening = false;
  /** Moves on every listener transition: a read begun before one is not kept. */
  private generation = 0;

  /** `readVersion`: the version in the database, undefined when its row is gone (throws when the database cannot answer). */
  constructor(private readonly readVersion: () => Promise<string | undefined>) {}

  /**
   * The version now, to be taken before the data it tags is read: from memory while the listener hears
   * every change, else from the database (one statement). Undefined when neither can say (the database is
   * down, or the row is gone): no answer is public then.
   */
  async current(): Promise<string | undefined> {
    if (this.known !== undefined) return this.known;
    const [listening, generation] = [this.listening, this.generation];
    let version: string | undefined;
    try {
      version = await this.readVersion();
    } catch {
      return undefined;
    }
    // Read while listening without a drop since: every later change will be heard, so it may be kept.
    if (version !== undefined && listening && generation === this.generation) this.learn(version);
    return version;
  }

  /** The version held in memory, without a statement: undefined when none can be vouched for now. */
  vouchedFor(): string | undefined {
    return this.known;
  }

  /** A notification of the trigger. Anything unexpected (the row gone) forgets the version. */
  changed(payload: string): void {
    if (!this.listening) return;
    if (isVersion(payload)) this.learn(payload);
    else this.known = undefined;
  }

  /**
   * This instance committed a change that may have moved the version: its own notification may not have
   * arrived yet, so the next read asks the database (and, while listening, keeps what it reads).
   */
  mayHaveMoved(): void {
    this.generation += 1;
    this.known = undefined;
  }

  /** The listener's state: either way the version is forgotten; while listening, it is read again at once. */
  listenerState(state: 'lost' | 'listening'): void {
    this.generation += 1;
    this.known = undefined;
    this.listening = state === 'listening';
    if (this.listening) void this.current();
  }

  /** Versions only grow (in commit order): a read that lands after a newer notification does not take it back. */
  private learn(version: string): void {
    if (this.known === undefined || BigInt(version) > BigInt(this.known)) this.known = version;
  }
}
