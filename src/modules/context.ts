import type { Viewer } from '../auth/viewer.ts';
import type { EventHub } from '../core/event-hub.ts';
import type { LessonEventMessage } from './classroom-activities/lesson-events.ts';
import type { RequestScope } from '../core/load.ts';
import type { Db, SqlRead } from '../db/client.ts';

// What every resolver and operation is given: built once per request (an HTTP request, a REST route, a
// subscription) by src/graphql/request-context.ts.

/** The instance's settings and services, the same for every request. */
export type ModuleSettings = {
  /** Where follow-up links point (docs/contract.md, finish_lesson). */
  appUrl: string;
  /** This instance's live lesson events, by classroom activity id (src/modules/classroom-activities/lesson-events.ts). */
  lessonEvents: EventHub<LessonEventMessage>;
};

/**
 * What an event stream (src/graphql/subscriptions/sse.ts) carries in and out of its subscription: the
 * Last-Event-ID it was asked with, which stands for an absent `after`, and the id of the event last resolved.
 */
export type EventStreamIds = { lastEventId: string | undefined; eventId: string | undefined };

export type RequestContext = {
  db: Db;
  /** Driver-level reads for the hot paths (src/db/client.ts, SqlRead). */
  read: SqlRead;
  viewer: Viewer;
  /** The request's loaders, each made on first use by the module that declares it (src/core/load.ts, perRequest). */
  scope: RequestScope;
  settings: ModuleSettings;
  /**
   * Tells the reads that follow that they read classroom activity `id`: they show at least the state of the lesson
   * events this instance has delivered for it (set for queries on replicas: src/graphql/replica-reads.ts).
   */
  readsClassroomActivity?: (id: number) => void;
  /** On an event stream's subscription only. */
  eventStream?: EventStreamIds;
};
