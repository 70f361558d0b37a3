import { planOncePerOperation, selectionAt } from '../look-ahead.ts';
import type { Strict } from '../../core/strict.ts';
import type { Classroom, Concept, Unit } from '../../generated/prisma/client.ts';
import { activityById } from '../activities/loaders.ts';
import type { RequestContext } from '../context.ts';
import type {
  ActivitySessionResolvers,
  ClassroomActivityResolvers,
  ClassroomResolvers,
  ConceptResolvers,
  ConceptResultResolvers,
  FinishLessonPayloadResolvers,
  LessonEventResolvers,
  Resolvers,
  UnitResolvers,
} from '../types.generated.ts';
import { lessonEventId, type LessonEventMessage } from './lesson-events.ts';
import { classroomById, conceptResultsBySessionId, ownerByClassroomId, sessionsByClassroomActivityId, unitById } from './loaders.ts';
import {
  activitySessionStates,
  type ActivitySessionMapper,
  type ClassroomActivityMapper,
  type ConceptResultMapper,
  type FinishLessonPayloadMapper,
  type LessonEventMapper,
} from './mappers.ts';
import * as classroomActivities from './operations.ts';
import { viewPlanOf } from './view-plan.ts';
import { prepareView } from './view-statement.ts';

/** Query.classroomActivity's prepared view: what its operation selects below it, planned once per operation. */
const preparedViewOf = planOncePerOperation((info) => prepareView(viewPlanOf(selectionAt(info), info.fragments)));

/** The sessions the classroom activity's own view brought along, else its loader's. */
const sessionsOf = (classroomActivity: ClassroomActivityMapper, ctx: RequestContext) =>
  classroomActivity.sessions ?? sessionsByClassroomActivityId(ctx).load(classroomActivity.id);

export const classroomActivityResolvers = {
  Subscription: {
    lessonEvents: {
      subscribe: (_parent, { classroomActivityId, after }, ctx) => classroomActivities.followLesson(ctx, classroomActivityId, after),
      resolve: (event: LessonEventMessage, _args: unknown, ctx: RequestContext) => {
        // An event stream writes the id of the event it sends (src/graphql/subscriptions/sse.ts).
        if (ctx.eventStream) ctx.eventStream.eventId = lessonEventId(event.classroomActivityId, event.position);
        return event;
      },
    },
  },
  Query: {
    classroomActivity: (_parent, { id }, ctx, info) => classroomActivities.classroomActivityForTeacher(ctx, id, preparedViewOf(info)),
  },
  Mutation: {
    finishLesson: (_parent, { id, input }, ctx) => classroomActivities.finishLesson(ctx, id, input),
    unpinAndLock: (_parent, { id }, ctx) => classroomActivities.unpinAndLock(ctx, id),
    launchLesson: (_parent, { id }, ctx) => classroomActivities.launchLesson(ctx, id),
  },
  ClassroomActivity: {
    activity: async (classroomActivity, _args, ctx) => (await activityById(ctx).load(classroomActivity.activityId))!,
    classroom: async (classroomActivity, _args, ctx) => (await classroomById(ctx).load(classroomActivity.classroomId))!,
    unit: (classroomActivity, _args, ctx) => (classroomActivity.unitId === null ? null : unitById(ctx).load(classroomActivity.unitId)),
    studentNames: async (classroomActivity, _args, ctx) =>
      (await sessionsOf(classroomActivity, ctx)).map((session) => ({ activitySessionUid: session.uid, name: session.student.name })),
    sessions: (classroomActivity, _args, ctx) => sessionsOf(classroomActivity, ctx),
    lessonEventCursor: (classroomActivity) => lessonEventId(classroomActivity.id, classroomActivity.lessonEventPosition),
  } satisfies Strict<ClassroomActivityResolvers, ClassroomActivityMapper>,
  Classroom: {
    teacher: (classroom, _args, ctx) => ownerByClassroomId(ctx).load(classroom.id),
  } satisfies Strict<ClassroomResolvers, Classroom>,
  Unit: {} satisfies Strict<UnitResolvers, Unit>,
  ActivitySession: {
    conceptResults: (session, _args, ctx) => session.conceptResults ?? conceptResultsBySessionId(ctx).load(session.id),
  } satisfies Strict<ActivitySessionResolvers, ActivitySessionMapper>,
  ActivitySessionState: activitySessionStates,
  ConceptResult: {} satisfies Strict<ConceptResultResolvers, ConceptResultMapper>,
  Concept: {} satisfies Strict<ConceptResolvers, Concept>,
  FinishLessonPayload: {} satisfies Strict<FinishLessonPayloadResolvers, FinishLessonPayloadMapper>,
  LessonEvent: {
    id: (event) => lessonEventId(event.classroomActivityId, event.position),
  } satisfies Strict<LessonEventResolvers, LessonEventMapper>,
} satisfies Resolvers;
