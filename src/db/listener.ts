import { randomBytes } from 'node:crypto';
import pg from 'pg';

// The one listening connection of an instance on a PostgreSQL server (a pg.Client outside the pool),
// shared by every channel it listens on, reconnected with backoff when it drops, and checked at each
// connection to hear what the pool sends.

/** Told 'listening' once a channel is listened on, then of each drop ('lost') and return. */
export type ListenerStateHandler = (state: 'lost' | 'listening', details: { error?: unknown; retryInMs?: number }) => void;

/** The dedicated listening connection's name in pg_stat_activity (tests find it there). */
export const LISTENER_APPLICATION_NAME = 'lessons-gateway-listener';

/** The channel each connection's check is notified on, with a payload of its own (`sharedListener`). */
export const LISTENER_CHECK_CHANNEL = 'lgw_listener_check';
/** How long a new connection may take to hear its check once the notification has committed. */
export const LISTENER_CHECK_TIMEOUT_MS = 5_000;

/** The listening connection does not hear what is sent through the pool: it listens on another server, or through a pooler. */
export class ListenerDeafError extends Error {
  constructor() {
    super(
      `The listening connection did not hear, within ${LISTENER_CHECK_TIMEOUT_MS / 1000} s, a notification sent through DATABASE_URL: ` +
        "live lessons' events and the token cache's invalidation cannot work. DATABASE_URL seems to name a connection pooler in " +
        'transaction mode (PgBouncer, or a managed pooler), which does not keep LISTEN: set DATABASE_DIRECT_URL to the PostgreSQL ' +
        "server itself, the one DATABASE_URL's pooler sends to (docs/operations.md, Behind a connection pooler).",
    );
    this.name = 'ListenerDeafError';
  }
}

/** Sends a notification the way the app sends its events (through the pool): what the check must hear. */
export type Notify = (channel: string, payload: string) => Promise<void>;

type Subscription = { channel: string; onMessage: (payload: string) => void; onState: ListenerStateHandler };

/** `promise`'s value, or `timedOut` when it has not settled within `ms`. */
async function within<T>(promise: Promise<T>, ms: number, timedOut: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<T>((resolve) => (timer = setTimeout(() => resolve(timedOut), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

type Deferred = { promise: Promise<void>; resolve: () => void };
function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/**
 * Each `add` listens on one more channel on the same connection rather than opening one of its own. On
 * losing its connection it opens another and listens again on every channel, waiting 100 ms, then twice
 * as long each failed try, up to 5 s; every subscriber is told of each drop and return. Changes run one
 * at a time, so a channel added while the connection is being made is not missed. Each new connection,
 * once listening, must hear a notification of its own sent with `notify`: one that does not (a
 * ListenerDeafError) fails as a connection that cannot be made does, and is not used.
 */
export function sharedListener(connectionString: string, notify: Notify): SharedListener {
  return new SharedListener(connectionString, notify);
}

/** Ends a connection that is no longer used, whatever it says as it goes. */
async function endQuietly(which: pg.Client): Promise<void> {
  which.removeAllListeners('end');
  which.on('error', () => {});
  await which.end().catch(() => {});
}

/** What a listening connection does with what it hears, and whom it tells when it drops. */
type ConnectionHandlers = {
  deliver: (channel: string, payload: string) => void;
  lost: (which: pg.Client, error: unknown) => void;
};

/**
 * A new connection listening on `channels`, once it has heard a notification of its own sent with `notify`
 * (else it is ended and the try fails: a ListenerDeafError when it was sent and not heard).
 */
async function openCheckedConnection(
  connectionString: string,
  channels: ReadonlySet<string>,
  notify: Notify,
  { deliver, lost }: ConnectionHandlers,
): Promise<pg.Client> {
  const next = new pg.Client({ connectionString, application_name: LISTENER_APPLICATION_NAME });
  let check: { payload: string; heard: () => void } | undefined;
  next.on('notification', (message) => {
    if (message.channel === LISTENER_CHECK_CHANNEL) {
      if (check && message.payload === check.payload) check.heard();
      return;
    }
    deliver(message.channel, message.payload ?? '');
  });
  next.on('error', (error) => lost(next, error));
  next.on('end', () => lost(next, undefined));
  try {
    await next.connect();
    for (const channel of channels) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    await next.query(`LISTEN ${LISTENER_CHECK_CHANNEL}`);
    const payload = randomBytes(8).toString('hex');
    const heard = new Promise<boolean>((resolve) => (check = { payload, heard: () => resolve(true) }));
    // A pool that cannot send (the database unreachable) fails this try as a lost connection would, not as deafness.
    const sent = notify(LISTENER_CHECK_CHANNEL, payload).then(() => true);
    if (!(await within(sent, LISTENER_CHECK_TIMEOUT_MS, false)))
      throw new Error(`the listening connection's check could not send its notification within ${LISTENER_CHECK_TIMEOUT_MS / 1000} s`);
    if (!(await within(heard, LISTENER_CHECK_TIMEOUT_MS, false))) throw new ListenerDeafError();
  } catch (error) {
    void endQuietly(next);
    throw error;
  }
  return next;
}

/** The state of `sharedListener`'s one connection and its subscribers; see there. */
class SharedListener {
  private readonly subscriptions = new Set<Subscription>();
  private client: pg.Client | null = null;
  private listened = new Set<string>();
  private reconnecting = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private delay = 100;
  /** Settles when the connection is back: a subscriber added while it is down waits for it. */
  private back: Deferred | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly connectionString: string,
    private readonly notify: Notify,
  ) {}

  /**
   * Resolves once the subscription's channel is listened on (when the connection is down, once it is
   * back). The first subscriber's failure to connect is thrown, and nothing retries it.
   */
  async add(subscription: Subscription): Promise<void> {
    // Wrapped: a promise returned from the queued work would be awaited by the queue itself.
    const { back: comeBack } = await this.serially(async (): Promise<{ back?: Promise<void> }> => {
      this.subscriptions.add(subscription);
      try {
        if (this.client) {
          if (!this.listened.has(subscription.channel)) {
            await this.client.query(`LISTEN ${pg.escapeIdentifier(subscription.channel)}`);
            this.listened.add(subscription.channel);
          }
          subscription.onState('listening', {});
        } else if (this.reconnecting) return { back: (this.back ??= deferred()).promise };
        else await this.connect();
      } catch (error) {
        this.subscriptions.delete(subscription);
        throw error;
      }
      return {};
    });
    await comeBack;
  }

  async remove(subscription: Subscription): Promise<void> {
    await this.serially(async () => {
      if (!this.subscriptions.delete(subscription)) return;
      if (this.subscriptions.size === 0) await this.shutDown();
      else if (this.client && this.listened.has(subscription.channel) && !this.channels().has(subscription.channel)) {
        this.listened.delete(subscription.channel);
        await this.client.query(`UNLISTEN ${pg.escapeIdentifier(subscription.channel)}`).catch(() => {});
      }
    });
  }

  /** Closes the connection whoever still listens (the database is closing). */
  close(): Promise<void> {
    return this.serially(async () => {
      this.subscriptions.clear();
      await this.shutDown();
    });
  }

  /** Runs `work` once every change queued before it has settled. */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => {});
    return next;
  }

  private channels(): Set<string> {
    return new Set([...this.subscriptions].map((subscription) => subscription.channel));
  }

  private tell(state: 'lost' | 'listening', details: { error?: unknown; retryInMs?: number }): void {
    for (const subscription of [...this.subscriptions]) subscription.onState(state, details);
  }

  private async connect(): Promise<void> {
    if (this.subscriptions.size === 0) return;
    const wanted = this.channels();
    this.client = await openCheckedConnection(this.connectionString, wanted, this.notify, {
      deliver: (channel, payload) => {
        for (const subscription of [...this.subscriptions]) if (subscription.channel === channel) subscription.onMessage(payload);
      },
      lost: (which, error) => this.lost(which, error),
    });
    this.listened = wanted;
    this.reconnecting = false;
    this.delay = 100;
    this.back?.resolve();
    this.back = null;
    this.tell('listening', {});
  }

  private retry(): void {
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, 5_000);
    this.retryTimer = setTimeout(() => {
      this.serially(() => this.connect()).catch((error: unknown) => {
        if (!this.reconnecting) return;
        this.tell('lost', { error, retryInMs: this.delay });
        this.retry();
      });
    }, wait);
  }

  private lost(which: pg.Client, error: unknown): void {
    if (this.client !== which) return;
    this.client = null;
    this.listened = new Set();
    this.reconnecting = true;
    void endQuietly(which);
    this.tell('lost', { error, retryInMs: this.delay });
    this.retry();
  }

  /** No subscriber left: the connection is closed, and the next subscriber opens a new one. */
  private async shutDown(): Promise<void> {
    clearTimeout(this.retryTimer);
    this.reconnecting = false;
    this.back?.resolve();
    this.back = null;
    const current = this.client;
    this.client = null;
    this.listened = new Set();
    if (current) await endQuietly(current);
  }
}
