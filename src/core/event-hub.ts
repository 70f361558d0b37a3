// One instance's fan-out of positioned events (1, 2, 3… per key, in commit order) heard once, to every
// subscriber of a key, each through a bounded queue; and the replay that joins a subscriber's backlog to the
// live events with no gap and no duplicate, reading the store once per key however many subscribers resume.

/** A subscriber's queue holds at most this many undelivered live events by default. */
export const SUBSCRIBER_BUFFER = 256;
/** Each followed key keeps its latest events, at most this many, to serve subscribers that resume without a read. */
export const KEPT_PER_KEY = 64;

export type Positioned = { position: number };

/** What the store holds for one key: its events after the floor asked for, in order, and its latest position. */
export type Stored<Event> = { events: Event[]; latest: number };
/** Reads the store for several keys at once (one statement), each after its floor. */
export type ReadStored<Event> = (floors: ReadonlyMap<number, number>) => Promise<Map<number, Stored<Event>>>;

export type HubSubscription<Event> = {
  iterator: AsyncIterableIterator<Event>;
  /** Live events after `position` from now on (registered already: whatever came since is kept). */
  startLive(position: number): void;
  /** The events after `after` (which is at most `latest`, a position read after this subscription registered), then the live ones. */
  startAfter(after: number, latest: number): Promise<'started' | 'expired'>;
  end(): void;
};

type Subscriber<Event> = { push(event: Event): void; floor(): number | undefined; end(): void };

/**
 * A key with subscribers: the position it pushed last, and its latest events in an unbroken run (`recent`),
 * which holds every event after `completeFrom` when that is known (a read joined to what was pushed since).
 */
type Topic<Event> = {
  subscribers: Set<Subscriber<Event>>;
  pushed: number | undefined;
  recent: Event[];
  completeFrom: number | undefined;
  /** A read found the events in (floor, to] gone from the store: an `after` among them has expired. */
  gone: { floor: number; to: number } | undefined;
  /** While catching up after a gap, the live events heard meanwhile, pushed after the read. */
  held: Event[] | undefined;
  /** A read of this key in flight, and its floor: a subscriber resuming after that floor waits for it. */
  reading: { floor: number; done: Promise<unknown> } | undefined;
};

/** What a subscription asks of its hub: the hub's own methods, handed over once per hub rather than per subscription. */
type HubInternals<Event extends Positioned> = {
  bufferSize: number;
  leave(subscription: Subscription<Event>): void;
  begin(subscription: Subscription<Event>, from: number, backlog: Event[]): 'started';
  startAfter(subscription: Subscription<Event>, after: number, latest: number): Promise<'started' | 'expired'>;
};

export type EventHubOptions<Event> = {
  bufferSize?: number;
  kept?: number;
  read?: ReadStored<Event> | undefined;
  /**
   * Told of each event about to reach subscribers, before any does: what this instance then reads of `key`
   * must show at least that state (src/db/replicas.ts, `delivered`).
   */
  beforeDeliver?: ((key: number, event: Event) => void) | undefined;
};

export class EventHub<Event extends Positioned = Positioned> {
  private readonly topics = new Map<number, Topic<Event>>();
  private readonly keep: number;
  private readonly read: ReadStored<Event> | undefined;
  private readonly beforeDeliver: EventHubOptions<Event>['beforeDeliver'];
  /** The read being gathered this turn: sent at the next turn of the event loop. */
  private batch: { floors: Map<number, number>; done: Promise<Map<number, Stored<Event>>> } | undefined;
  /** Moves at each loss of the source (the listening connection): a subscription set up across one catches up itself. */
  private losses = 0;
  private deaf = false;
  private readonly internals: HubInternals<Event>;

  constructor(options: EventHubOptions<Event> | number = {}) {
    const {
      bufferSize = SUBSCRIBER_BUFFER,
      kept = KEPT_PER_KEY,
      read,
      beforeDeliver,
    } = typeof options === 'number' ? { bufferSize: options } : options;
    this.internals = {
      bufferSize,
      leave: (subscription) => this.leave(subscription),
      begin: (subscription, from, backlog) => this.begin(subscription, from, backlog),
      startAfter: (subscription, after, latest) => this.startAfter(subscription, after, latest),
    };
    this.keep = kept;
    this.read = read;
    this.beforeDeliver = beforeDeliver;
  }

  /** A live event heard: pushed to the key's subscribers unless seen already; a gap before it is read from the store first. */
  deliver(key: number, event: Event): void {
    const topic = this.topics.get(key);
    if (!topic) return;
    if (topic.held) return void topic.held.push(event);
    if (topic.pushed !== undefined && event.position > topic.pushed + 1 && this.read) {
      topic.held = [event];
      void this.catchUp(key, topic, topic.pushed);
      return;
    }
    this.push(key, topic, event);
  }

  /** The source stopped hearing: what it hears next may follow a gap. */
  lost(): void {
    this.losses += 1;
    this.deaf = true;
    for (const topic of this.topics.values()) topic.completeFrom = undefined;
  }

  /** The source hears again: every key catches up on what was committed meanwhile, before anything newer. */
  resumed(): void {
    if (!this.deaf) return;
    this.deaf = false;
    for (const [key, topic] of this.topics) {
      const floors = [topic.pushed, ...[...topic.subscribers].map((subscriber) => subscriber.floor())].filter(
        (floor): floor is number => floor !== undefined,
      );
      if (floors.length > 0 && !topic.held) {
        topic.held = [];
        void this.catchUp(key, topic, Math.min(...floors));
      }
    }
  }

  /** Keys followed on this instance (the metrics, tests). */
  keys(): number {
    return this.topics.size;
  }

  private push(key: number, topic: Topic<Event>, event: Event): void {
    if (topic.pushed !== undefined && event.position <= topic.pushed) return;
    topic.pushed = event.position;
    if (topic.subscribers.size > 0) this.beforeDeliver?.(key, event);
    this.remember(topic, event);
    for (const subscriber of [...topic.subscribers]) subscriber.push(event);
  }

  /** Adds `event` to the topic's unbroken run of latest events (a new run after a gap), at most `keep` long. */
  private remember(topic: Topic<Event>, event: Event): void {
    const last = topic.recent.at(-1)?.position;
    if (last !== undefined && event.position <= last) return;
    if (last !== undefined && event.position > last + 1) {
      topic.recent = [];
      topic.completeFrom = undefined;
    }
    topic.recent.push(event);
    if (topic.recent.length > this.keep) {
      const dropped = topic.recent.shift()!;
      if (topic.completeFrom !== undefined) topic.completeFrom = dropped.position;
    }
  }

  /**
   * Reads what followed `floor`, pushes it in order, then what was held meanwhile. When the store cannot be
   * read, the key's subscribers are ended rather than handed events past a gap: each resumes with `after`.
   */
  private async catchUp(key: number, topic: Topic<Event>, floor: number): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        const stored = await this.readOnce(key, topic, floor);
        if (this.topics.get(key) !== topic) return;
        for (const event of stored) this.push(key, topic, event);
        const held = topic.held ?? [];
        topic.held = undefined;
        for (const event of held) this.deliver(key, event);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      }
    }
    topic.held = undefined;
    for (const subscriber of [...topic.subscribers]) subscriber.end();
  }

  /**
   * The stored events of `key` after `floor` that run unbroken to its latest (through the batched read); joined
   * to what was pushed while reading, they become the topic's complete run of latest events.
   */
  private async readOnce(key: number, topic: Topic<Event>, floor: number): Promise<Event[]> {
    const losses = this.losses;
    const reading = this.readBatched(key, floor);
    if (!topic.reading || topic.reading.floor > floor) topic.reading = { floor, done: reading };
    let stored: Stored<Event>;
    try {
      stored = (await reading) ?? { events: [], latest: floor };
    } finally {
      if (topic.reading?.done === reading) topic.reading = undefined;
    }
    // Before the unbroken run that ends at the latest event, the store lost some (retention).
    const { events, latest } = stored;
    let start = events.length;
    while (start > 0 && events[start - 1]!.position === (start < events.length ? events[start]!.position : latest + 1) - 1) start -= 1;
    const run = events.slice(start);
    const runFrom = run.length > 0 ? run[0]!.position - 1 : Math.max(floor, latest);
    if (runFrom > floor) topic.gone = { floor, to: runFrom };
    const end = runFrom + run.length;
    const later = topic.recent.filter((event) => event.position > end);
    const joined = later.length === 0 || later[0]!.position === end + 1;
    if (joined && this.losses === losses && !this.deaf && this.topics.get(key) === topic) {
      const all = [...run, ...later];
      topic.recent = all.length > this.keep ? all.slice(-this.keep) : all;
      topic.completeFrom = end + later.length - topic.recent.length;
    }
    return run;
  }

  /** One read for every key asked for in the same turn (each from the lowest floor asked for it). */
  private readBatched(key: number, floor: number): Promise<Stored<Event> | undefined> {
    if (!this.batch) {
      const floors = new Map<number, number>();
      const read = this.read!;
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.batch = undefined;
        return read(floors);
      });
      this.batch = { floors, done };
    }
    const { floors, done } = this.batch;
    floors.set(key, Math.min(floors.get(key) ?? floor, floor));
    return done.then((stored) => stored.get(key));
  }

  /** A subscription of `key`, registered now: the events heard from now on are kept until it starts. */
  subscribe(key: number): HubSubscription<Event> {
    const topic = this.topics.get(key) ?? this.newTopic(key);
    const subscription = new Subscription(this.internals, key, topic, this.losses);
    topic.subscribers.add(subscription.iterator);
    return subscription;
  }

  /** Its follower has ended: it no longer hears its key, which is forgotten once no one does. */
  private leave({ key, topic, iterator }: Subscription<Event>): void {
    topic.subscribers.delete(iterator);
    if (topic.subscribers.size === 0 && this.topics.get(key) === topic) this.topics.delete(key);
  }

  /** Starts after `from` with `backlog`; set up across a loss of the source, it reads what was missed meanwhile. */
  private begin({ key, topic, iterator, losses }: Subscription<Event>, from: number, backlog: Event[]): 'started' {
    const last = backlog.at(-1);
    if (last) this.beforeDeliver?.(key, last);
    iterator.begin(from, backlog);
    if (this.losses !== losses && !this.deaf && this.read && !topic.held) {
      topic.held = [];
      void this.catchUp(key, topic, iterator.floor()!);
    }
    return 'started';
  }

  private async startAfter(subscription: Subscription<Event>, after: number, latest: number): Promise<'started' | 'expired'> {
    const { key, topic } = subscription;
    subscription.iterator.startFloor = after;
    if (after >= latest || !this.read) return this.begin(subscription, after, []);
    // A read in flight from as far back serves this one too (it keeps what is pushed meanwhile).
    if (topic.reading && topic.reading.floor <= after) await topic.reading.done.catch(() => {});
    const served = this.fromKept(topic, after);
    if (served === 'expired') return 'expired';
    if (served) return this.begin(subscription, after, served);
    // A little before `after` too, so that subscribers resuming from older cursors join this read.
    const run = await this.readOnce(key, topic, Math.min(after, Math.max(0, latest - this.keep / 2)));
    const again = this.fromKept(topic, after);
    if (again === 'expired') return 'expired';
    return this.begin(subscription, after, again ?? run);
  }

  /** The kept events after `after` when the topic holds all of them; 'expired' when a read found them gone. */
  private fromKept(topic: Topic<Event>, after: number): Event[] | 'expired' | undefined {
    if (topic.gone && after >= topic.gone.floor && after < topic.gone.to) return 'expired';
    if (topic.completeFrom === undefined || topic.held || topic.completeFrom > after) return undefined;
    return topic.recent.filter((event) => event.position > after);
  }

  private newTopic(key: number): Topic<Event> {
    const topic: Topic<Event> = {
      subscribers: new Set(),
      pushed: undefined,
      recent: [],
      completeFrom: undefined,
      gone: undefined,
      held: undefined,
      reading: undefined,
    };
    this.topics.set(key, topic);
    return topic;
  }
}

/** A subscription as EventHub.subscribe() gives it: its follower (the iterator), and what its hub needs to start and end it. */
class Subscription<Event extends Positioned> implements HubSubscription<Event> {
  readonly iterator: Follower<Event>;

  constructor(
    private readonly hub: HubInternals<Event>,
    readonly key: number,
    readonly topic: Topic<Event>,
    /** The hub's losses of its source when this subscription registered. */
    readonly losses: number,
  ) {
    this.iterator = new Follower(hub.bufferSize, this);
  }

  startLive(position: number): void {
    this.hub.begin(this, position, []);
  }

  startAfter(after: number, latest: number): Promise<'started' | 'expired'> {
    return this.hub.startAfter(this, after, latest);
  }

  end(): void {
    this.iterator.end();
  }

  /** Told by its follower as that ends. */
  followerEnded(): void {
    this.hub.leave(this);
  }
}

/**
 * One subscriber's bounded queue, and the iterator that hands it over: everything pushed is kept until it
 * begins, then only what follows what it has seen.
 */
class Follower<Event extends Positioned> implements Subscriber<Event>, AsyncIterableIterator<Event> {
  private readonly queue: Event[] = [];
  private waiting: ((result: IteratorResult<Event>) => void) | null = null;
  private ended = false;
  /** Undefined until it begins: everything pushed is kept, unfiltered, and sorted out then. */
  private seen: number | undefined;
  /** How many of the queued events, at its front, are the backlog it began with: room is made for them beside the limit. */
  private backlogQueued = 0;
  startFloor: number | undefined;

  constructor(
    private readonly limit: number,
    private readonly subscription: { followerEnded(): void },
  ) {}

  next(): Promise<IteratorResult<Event>> {
    if (this.queue.length > 0 && this.seen !== undefined) return Promise.resolve({ value: this.handOver(), done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<Event>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  floor(): number | undefined {
    return this.seen ?? this.startFloor;
  }

  push(event: Event): void {
    if (this.ended || (this.seen !== undefined && event.position <= this.seen)) return;
    if (this.seen !== undefined) this.seen = event.position;
    if (this.seen !== undefined && this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: event, done: false });
    } else if (this.queue.length >= this.limit + this.backlogQueued) this.end();
    else this.queue.push(event);
  }

  /** From here on it hands over `backlog` (the events after `from`, in order), then what was kept, then the live ones. */
  begin(from: number, backlog: Event[]): void {
    if (this.ended) return;
    const kept = this.queue.splice(0);
    this.seen = from;
    this.queueAfterSeen(backlog);
    this.backlogQueued = this.queue.length;
    this.queueAfterSeen(kept);
    if (this.queue.length > 0 && this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: this.handOver(), done: false });
    }
  }

  private queueAfterSeen(events: Event[]): void {
    for (const event of events)
      if (event.position > this.seen!) {
        this.seen = event.position;
        this.queue.push(event);
      }
  }

  /** The first queued event, taken off the queue (and off the backlog's room while it is of the backlog). */
  private handOver(): Event {
    if (this.backlogQueued > 0) this.backlogQueued -= 1;
    return this.queue.shift()!;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue.length = 0;
    this.backlogQueued = 0;
    this.subscription.followerEnded();
    this.waiting?.({ value: undefined, done: true });
    this.waiting = null;
  }
}
