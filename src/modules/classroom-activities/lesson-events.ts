import type { Tx } from '../../db/transaction.ts';
import type { ClassroomActivity } from '../../generated/prisma/client.ts';
import { EventHub, type ReadStored, type Stored } from '../../core/event-hub.ts';
import { ListenerDeafError, type Database, type SqlRead } from '../../db/client.ts';
import type { LessonEventKind } from '../types.generated.ts';

// Live lessons' events (docs/contract.md, Live lessons): each stored by the transaction that makes its change,
// at its classroom activity's next position (taken under that row's lock, so positions follow commit order),
// and announced with pg_notify in the same statement, which PostgreSQL and PGlite deliver at commit, never for
// a rollback. The store makes them resumable (`after`), and fills whatever a listening connection missed.

/** The one channel every instance listens on. */
export const LESSON_EVENTS_CHANNEL = 'lesson_events';

export type LessonEventMessage = {
  kind: LessonEventKind;
  classroomActivityId: number;
  /** 1, 2, 3… within its classroom activity, in commit order. */
  position: number;
  locked: boolean;
  pinned: boolean;
  completed: boolean;
  followUpUrl: string | null;
  /** ISO 8601, UTC, milliseconds: when the event was stored, under the row's lock, just before the commit. */
  at: string;
};

/** The event's fields as JSON text, from a row of lesson_events `e` (the notification's payload, and the replay's rows). */
const EVENT_JSON = `json_build_object('kind', e.kind, 'classroomActivityId', e.classroom_activity_id, 'position', e.position,
  'locked', e.locked, 'pinned', e.pinned, 'completed', e.completed, 'followUpUrl', e.follow_up_url,
  'at', to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text`;

/** Stores an event and queues its notification, from the stored row `e` (to which `position` is given). */
const STORE = (position: string, from: string) => `
  e AS (
    INSERT INTO lesson_events (classroom_activity_id, position, kind, locked, pinned, completed, follow_up_url, at)
    SELECT $1::int, ${position}, $2::lesson_event_kind, $3::boolean, $4::boolean, $5::boolean, $6::text, clock_timestamp() ${from}
    RETURNING *)
  SELECT e.position, pg_notify('${LESSON_EVENTS_CHANNEL}', ${EVENT_JSON})::text AS sent FROM e`;
/** The change's own update moved the position ($7): the event is stored there. */
const STORE_AT_MOVED = `WITH ${STORE('$7::int', '')}`;
/**
 * The position is moved here. Avoided where it can be: a second update of a row in one transaction has
 * PostgreSQL check its foreign keys again (KEY SHARE on the classroom), which can deadlock with a launch.
 */
const MOVE_AND_STORE = `WITH moved AS (
    UPDATE classroom_activities SET lesson_event_position = lesson_event_position + 1 WHERE id = $1::int RETURNING lesson_event_position),
  ${STORE('lesson_event_position', 'FROM moved')}`;

/**
 * Stores the event and queues its notification in one statement (the one that notified before events were
 * stored): delivered at commit, dropped with a rollback. The caller's transaction holds the classroom
 * activity's row lock, and its update moved `lessonEventPosition` to this event's, unless `moved` is false
 * (then it is moved here). Answers the event's position.
 */
export async function notifyLessonEvent(
  tx: Tx,
  kind: LessonEventKind,
  classroomActivity: Pick<ClassroomActivity, 'id' | 'locked' | 'pinned' | 'completed' | 'lessonEventPosition'>,
  followUpUrl: string | null = null,
  { moved = true }: { moved?: boolean } = {},
): Promise<number> {
  const { id, locked, pinned, completed, lessonEventPosition } = classroomActivity;
  const values = [id, kind, locked, pinned, completed, followUpUrl, ...(moved ? [lessonEventPosition] : [])];
  // pg_notify returns void, which Prisma's raw query reader cannot read: it is read as text.
  const [stored] = await tx.$queryRawUnsafe<{ position: number }[]>(moved ? STORE_AT_MOVED : MOVE_AND_STORE, ...values);
  return stored!.position;
}

// An event's id: its classroom activity's id and its position (ten digits), so that later events of one
// classroom activity compare later as strings, and an id names the classroom activity it belongs to.
const ID_PATTERN = /^(\d{1,10})-(\d{10})$/;

export function lessonEventId(classroomActivityId: number, position: number): string {
  return `${classroomActivityId}-${String(position).padStart(10, '0')}`;
}

/** The classroom activity and position an id names, or null when it is not an id of an event (or of a cursor before the first). */
export function parseLessonEventId(id: string): { classroomActivityId: number; position: number } | null {
  const match = ID_PATTERN.exec(id);
  if (!match) return null;
  const classroomActivityId = Number(match[1]);
  const position = Number(match[2]);
  if (classroomActivityId > 2_147_483_647 || position > 2_147_483_647) return null;
  return { classroomActivityId, position };
}

/**
 * The stored events of several classroom activities, each after its floor, and each one's latest position:
 * one statement whatever their number (src/core/event-hub.ts batches every resume of a moment into it).
 */
export function readStoredLessonEvents(read: SqlRead): ReadStored<LessonEventMessage> {
  return async (floors) => {
    const ids = [...floors.keys()];
    const rows = await read<{ id: number; latest: number; event: string | null }>(
      {
        name: 'lesson_events_after',
        text: `SELECT ca.id, ca.lesson_event_position AS latest, CASE WHEN e.position IS NULL THEN NULL ELSE ${EVENT_JSON} END AS event
          FROM unnest($1::int[], $2::int[]) AS wanted(id, after)
          JOIN classroom_activities ca ON ca.id = wanted.id
          LEFT JOIN lesson_events e ON e.classroom_activity_id = wanted.id AND e.position > wanted.after
          ORDER BY ca.id, e.position`,
      },
      [ids, ids.map((id) => floors.get(id)!)],
    );
    const stored = new Map<number, Stored<LessonEventMessage>>();
    for (const row of rows) {
      const entry = stored.get(row.id) ?? { events: [], latest: row.latest };
      stored.set(row.id, entry);
      if (row.event !== null) entry.events.push(JSON.parse(row.event) as LessonEventMessage);
    }
    return stored;
  };
}

/** This instance's lesson events: the hub its subscribers follow, replaying from the store. */
export function lessonEventHub(
  database: Pick<Database, 'read'>,
  beforeDeliver?: (classroomActivityId: number) => void,
): EventHub<LessonEventMessage> {
  return new EventHub<LessonEventMessage>({ read: readStoredLessonEvents(database.read), beforeDeliver });
}

/**
 * Hands each lesson event this instance hears to the subscribers of its classroom activity (`hub`), until
 * the returned function is called; `log` is told when the listening connection drops and comes back, and
 * the hub, which then reads from the store what was committed meanwhile.
 */
export function listenForLessonEvents(
  database: Pick<Database, 'listen'>,
  hub: EventHub<LessonEventMessage>,
  log: { error(details: object, message: string): void; warn(details: object, message: string): void; info(message: string): void },
): Promise<() => Promise<void>> {
  return database.listen(
    LESSON_EVENTS_CHANNEL,
    (payload) => {
      let message: LessonEventMessage;
      try {
        message = JSON.parse(payload) as LessonEventMessage;
      } catch {
        return;
      }
      // Without a position (sent by a version before events were stored) it cannot be placed in order: the store has it not.
      if (typeof message?.position === 'number') hub.deliver(message.classroomActivityId, message);
    },
    (state, { error, retryInMs }) => {
      if (state === 'listening') {
        log.info('lesson events: listening');
        hub.resumed();
        return;
      }
      hub.lost();
      // A new connection that hears nothing the app sends: a misconfiguration (docs/operations.md, Behind a connection pooler).
      if (error instanceof ListenerDeafError)
        log.error({ err: error, retryInMs }, 'lesson events: the new listening connection is deaf to DATABASE_URL, reconnecting');
      else log.warn({ err: error, retryInMs }, 'lesson events: lost the listening connection, reconnecting');
    },
  );
}

/** Rows deleted per statement by the pruning: a long backlog goes in several, none holding many locks for long. */
const PRUNE_BATCH = 5_000;

/**
 * Deletes the events older than `retentionMs` (by the database's clock) every half of it, at most every
 * 30 s (so within a minute of their passing it), until the returned function is called. Several instances
 * prune side by side: each statement skips the rows another is deleting. A failure waits for the next turn.
 */
export function pruneLessonEvents(
  database: Pick<Database, 'background'>,
  retentionMs: number,
  log: { warn(details: object, message: string): void },
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const prune = async () => {
    for (let batch = 0; batch < 100; batch += 1) {
      const deleted = await database.background<{ id: string }>(
        `DELETE FROM lesson_events WHERE id IN (
           SELECT id FROM lesson_events WHERE at < clock_timestamp() - $1::int8 * interval '1 millisecond'
           ORDER BY at LIMIT ${PRUNE_BATCH} FOR UPDATE SKIP LOCKED)
         RETURNING id`,
        [retentionMs],
      );
      if (deleted.length < PRUNE_BATCH) return;
    }
  };
  const timer = setInterval(
    () => {
      running ??= prune()
        .catch((error: unknown) => log.warn({ err: error }, 'lesson events: pruning failed, trying again later'))
        .finally(() => (running = undefined));
    },
    Math.min(30_000, Math.max(250, retentionMs / 2)),
  );
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
