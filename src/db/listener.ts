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
export function sharedListener(connectionString: string, notify: Notify) {
  const subscriptions = new Set<Subscription>();
  let client: pg.Client | null = null;
  let listened = new Set<string>();
  let reconnecting = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = 100;
  /** Settles when the connection is back: a subscriber added while it is down waits for it. */
  let back: Deferred | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  };
  const channels = () => new Set([...subscriptions].map((subscription) => subscription.channel));
  const tell = (state: 'lost' | 'listening', details: { error?: unknown; retryInMs?: number }) => {
    for (const subscription of [...subscriptions]) subscription.onState(state, details);
  };
  const release = (which: pg.Client) => {
    which.removeAllListeners('end');
    which.on('error', () => {});
    void which.end().catch(() => {});
  };

  const connect = async () => {
    if (subscriptions.size === 0) return;
    const next = new pg.Client({ connectionString, application_name: LISTENER_APPLICATION_NAME });
    let check: { payload: string; heard: () => void } | undefined;
    next.on('notification', (message) => {
      if (message.channel === LISTENER_CHECK_CHANNEL) {
        if (check && message.payload === check.payload) check.heard();
        return;
      }
      for (const subscription of [...subscriptions])
        if (subscription.channel === message.channel) subscription.onMessage(message.payload ?? '');
    });
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next, undefined));
    const wanted = channels();
    try {
      await next.connect();
      for (const channel of wanted) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      await next.query(`LISTEN ${LISTENER_CHECK_CHANNEL}`);
      const payload = randomBytes(8).toString('hex');
      const heard = new Promise<boolean>((resolve) => (check = { payload, heard: () => resolve(true) }));
      // A pool that cannot send (the database unreachable) fails this try as a lost connection would, not as deafness.
      const sent = notify(LISTENER_CHECK_CHANNEL, payload).then(() => true);
      if (!(await within(sent, LISTENER_CHECK_TIMEOUT_MS, false)))
        throw new Error(`the listening connection's check could not send its notification within ${LISTENER_CHECK_TIMEOUT_MS / 1000} s`);
      if (!(await within(heard, LISTENER_CHECK_TIMEOUT_MS, false))) throw new ListenerDeafError();
    } catch (error) {
      release(next);
      throw error;
    }
    client = next;
    listened = wanted;
    reconnecting = false;
    delay = 100;
    back?.resolve();
    back = null;
    tell('listening', {});
  };
  const retry = () => {
    const wait = delay;
    delay = Math.min(delay * 2, 5_000);
    retryTimer = setTimeout(() => {
      serially(connect).catch((error: unknown) => {
        if (!reconnecting) return;
        tell('lost', { error, retryInMs: delay });
        retry();
      });
    }, wait);
  };
  const lost = (which: pg.Client, error: unknown) => {
    if (client !== which) return;
    client = null;
    listened = new Set();
    reconnecting = true;
    release(which);
    tell('lost', { error, retryInMs: delay });
    retry();
  };
  /** No subscriber left: the connection is closed, and the next subscriber opens a new one. */
  const shutDown = async () => {
    clearTimeout(retryTimer);
    reconnecting = false;
    back?.resolve();
    back = null;
    const current = client;
    client = null;
    listened = new Set();
    if (current) {
      current.removeAllListeners('end');
      current.on('error', () => {});
      await current.end().catch(() => {});
    }
  };

  return {
    /**
     * Resolves once the subscription's channel is listened on (when the connection is down, once it is
     * back). The first subscriber's failure to connect is thrown, and nothing retries it.
     */
    async add(subscription: Subscription): Promise<void> {
      // Wrapped: a promise returned from the queued work would be awaited by the queue itself.
      const { back: comeBack } = await serially(async (): Promise<{ back?: Promise<void> }> => {
        subscriptions.add(subscription);
        try {
          if (client) {
            if (!listened.has(subscription.channel)) {
              await client.query(`LISTEN ${pg.escapeIdentifier(subscription.channel)}`);
              listened.add(subscription.channel);
            }
            subscription.onState('listening', {});
          } else if (reconnecting) return { back: (back ??= deferred()).promise };
          else await connect();
        } catch (error) {
          subscriptions.delete(subscription);
          throw error;
        }
        return {};
      });
      await comeBack;
    },
    async remove(subscription: Subscription): Promise<void> {
      await serially(async () => {
        if (!subscriptions.delete(subscription)) return;
        if (subscriptions.size === 0) await shutDown();
        else if (client && listened.has(subscription.channel) && !channels().has(subscription.channel)) {
          listened.delete(subscription.channel);
          await client.query(`UNLISTEN ${pg.escapeIdentifier(subscription.channel)}`).catch(() => {});
        }
      });
    },
    /** Closes the connection whoever still listens (the database is closing). */
    close: () =>
      serially(async () => {
        subscriptions.clear();
        await shutDown();
      }),
  };
}
