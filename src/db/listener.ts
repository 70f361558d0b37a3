import pg from 'pg';

// The one listening connection of an instance on a PostgreSQL server (a pg.Client outside the pool),
// shared by every channel it listens on, and reconnected with backoff when it drops.

/** Told 'listening' once a channel is listened on, then of each drop ('lost') and return. */
export type ListenerStateHandler = (state: 'lost' | 'listening', details: { error?: unknown; retryInMs?: number }) => void;

/** The dedicated listening connection's name in pg_stat_activity (tests find it there). */
export const LISTENER_APPLICATION_NAME = 'lessons-gateway-listener';

type Subscription = { channel: string; onMessage: (payload: string) => void; onState: ListenerStateHandler };

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
 * at a time, so a channel added while the connection is being made is not missed.
 */
export function sharedListener(connectionString: string) {
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
    next.on('notification', (message) => {
      for (const subscription of [...subscriptions])
        if (subscription.channel === message.channel) subscription.onMessage(message.payload ?? '');
    });
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next, undefined));
    const wanted = channels();
    try {
      await next.connect();
      for (const channel of wanted) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
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
