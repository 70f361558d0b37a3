import type { Database, SqlRead, Statement } from '../db/client.ts';

// The public catalogue's version (activities and their classifications), from which public reads' HTTP tags
// are made: a trigger moves it in every transaction that writes them and notifies every instance at commit
// (prisma/migrations/20261210000000_public_catalogue_version). Why a tag stays right: docs/operations.md.

/** The channel the trigger notifies on; the payload is the new version (digits), or empty when its row is gone. */
export const CATALOGUE_CHANGES_CHANNEL = 'public_catalogue_changes';

const READ_VERSION: Statement = {
  name: 'public_catalogue_version',
  text: 'SELECT version::text AS version FROM public_catalogue_version WHERE id = 1',
};

const isVersion = (value: string) => /^\d{1,19}$/.test(value);

export class CatalogueVersion {
  /** The latest version heard or read while listening; undefined whenever it cannot be vouched for. */
  private known: string | undefined;
  private listening = false;
  /** Moves on every listener transition: a read begun before one is not kept. */
  private generation = 0;

  constructor(private readonly read: SqlRead) {}

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
      const [row] = await this.read<{ version: string }>(READ_VERSION, []);
      version = row?.version;
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

/**
 * Keeps `version` told of every change the database notifies, on the instance's listening connection;
 * resolves once listening, with the function that stops it.
 */
export function listenForCatalogueChanges(database: Pick<Database, 'listen'>, version: CatalogueVersion): Promise<() => Promise<void>> {
  return database.listen(
    CATALOGUE_CHANGES_CHANNEL,
    (payload) => version.changed(payload),
    (state) => version.listenerState(state),
  );
}
