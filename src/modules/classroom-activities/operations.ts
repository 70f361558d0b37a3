import { GraphQLError } from 'graphql';
import { assertAccess, type Action } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { badUserInput, lessonEventsExpired, notFound, type FieldErrors } from '../../core/errors.ts';
import { parseNumericId } from '../../core/validation.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { ClassroomActivity, User } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../context.ts';
import { finishInTransaction, lookUpReferences } from './finish-lesson.ts';
import { parseFinishLessonInput, uidReferences, type FinishLessonCommand } from './finish-lesson.input.ts';
import { launchInTransaction, unpinAndLockInTransaction } from './lesson-state.ts';
import { parseLessonEventId, type LessonEventMessage } from './lesson-events.ts';
import { classroomActivityViewById, classroomById, ownerByClassroomId, unitById } from './loaders.ts';
import type { ClassroomActivityMapper, FinishLessonPayloadMapper } from './mappers.ts';
import { prepareView, fetchView, type ClassroomActivityView, type PreparedView } from './view-statement.ts';

// What can be done with a classroom activity, for GraphQL and the REST shim alike. Its teachers read and
// change it, its teachers and students follow it live; every check runs in the order 404 → 401 → 403
// (docs/contract.md, Errors), and a change reads its input only once access is settled.

/** The view before a change: the columns the changes need, and what the change's answer may read next. */
const VIEW_BEFORE_A_CHANGE = prepareView({
  fields: ['activity'],
  classroom: true,
  owner: true,
  unit: true,
  follower: false,
  sessions: null,
});
/** The check before following a lesson: its latest event position, and whether the viewer may follow it. */
const FOLLOWER_VIEW = prepareView({
  fields: ['lessonEventCursor'],
  classroom: false,
  owner: false,
  unit: false,
  follower: true,
  sessions: null,
});

const viewerIdOf = (viewer: Viewer) => (viewer.kind === 'user' ? viewer.user.id : null);

/** What a teacher of the classroom (owner or co-teacher) alone may do with its classroom activities. */
type TeacherAction = Extract<Action, `classroomActivity.${string}`>;

/** What the view brought along goes to the loaders: the fields that read it next cost no statement. */
function primeLoaders(ctx: RequestContext, { classroomActivity, classroom, owner, unit }: ClassroomActivityView): void {
  if (classroom) classroomById(ctx).prime(classroom.id, classroom);
  if (owner !== undefined) ownerByClassroomId(ctx).prime(classroomActivity.classroomId, owner);
  if (unit) unitById(ctx).prime(unit.id, unit);
}

/** The classroom activity as its teacher reads it, with what `prepared` brings; null when unknown or hidden. */
export async function classroomActivityForTeacher(
  ctx: RequestContext,
  id: string,
  prepared: PreparedView,
): Promise<ClassroomActivityMapper | null> {
  const numericId = parseNumericId(id);
  if (numericId !== null) ctx.readsClassroomActivity?.(numericId);
  const found = await fetchView(ctx.read, id, viewerIdOf(ctx.viewer), prepared);
  if (!found) return null;
  assertAccess(ctx.viewer, 'classroomActivity.read', found);
  primeLoaders(ctx, found);
  return found.classroomActivity;
}

/** The classroom activity a teacher is about to change, else NOT_FOUND, UNAUTHENTICATED or FORBIDDEN. */
async function beforeAChange(
  ctx: RequestContext,
  id: string,
  action: TeacherAction,
): Promise<{ classroomActivity: ClassroomActivity; teacher: User }> {
  const found = await fetchView(ctx.read, id, viewerIdOf(ctx.viewer), VIEW_BEFORE_A_CHANGE);
  if (!found) throw notFound();
  const teacher = assertAccess(ctx.viewer, action, found);
  primeLoaders(ctx, found);
  return { classroomActivity: found.classroomActivity, teacher };
}

/** A teacher ends the lesson: FinishLessonInput's shape, checked once access is settled. */
export async function finishLesson(ctx: RequestContext, id: string, input: unknown): Promise<FinishLessonPayloadMapper> {
  const { classroomActivity, teacher } = await beforeAChange(ctx, id, 'classroomActivity.finish');
  let command: FinishLessonCommand;
  try {
    command = parseFinishLessonInput(input);
  } catch (error) {
    throw await withUnknownUids(ctx, classroomActivity.id, error, input);
  }
  return inTransaction(ctx.db, (tx) =>
    finishInTransaction(tx, { classroomActivityId: classroomActivity.id, teacherId: teacher.id, command, appUrl: ctx.settings.appUrl }),
  );
}

/**
 * A 422 names every offender (docs/contract.md, finish_lesson): when the input is malformed, the uids that
 * name no visible session of this classroom activity, or no concept, are added to the malformed fields.
 */
async function withUnknownUids(ctx: RequestContext, classroomActivityId: number, error: unknown, input: unknown): Promise<unknown> {
  if (!(error instanceof GraphQLError) || error.extensions.code !== 'BAD_USER_INPUT') return error;
  const references = uidReferences(input);
  if (references.length === 0) return error;
  const { errors } = await lookUpReferences(ctx.db, classroomActivityId, references);
  if (Object.keys(errors).length === 0) return error;
  return badUserInput({ ...(error.extensions.fields as FieldErrors), ...errors }, error.message);
}

export async function unpinAndLock(ctx: RequestContext, id: string): Promise<ClassroomActivity> {
  const { classroomActivity } = await beforeAChange(ctx, id, 'classroomActivity.unpinAndLock');
  return inTransaction(ctx.db, (tx) => unpinAndLockInTransaction(tx, classroomActivity.id));
}

export async function launchLesson(ctx: RequestContext, id: string): Promise<ClassroomActivity> {
  const { classroomActivity } = await beforeAChange(ctx, id, 'classroomActivity.launch');
  return inTransaction(ctx.db, (tx) => launchInTransaction(tx, classroomActivity));
}

/**
 * A classroom activity a supergraph names by its id (src/modules/classroom-activities/entities.ts), as the
 * root field reads it: null when unknown or hidden, UNAUTHENTICATED or FORBIDDEN unless the viewer teaches
 * its classroom. Batched: one statement for all the representations of a request.
 */
export async function classroomActivityById(ctx: RequestContext, id: unknown): Promise<ClassroomActivityMapper | null> {
  const numericId = typeof id === 'string' || typeof id === 'number' ? parseNumericId(id) : null;
  if (numericId !== null) ctx.readsClassroomActivity?.(numericId);
  const found = numericId === null ? null : await classroomActivityViewById(ctx).load(numericId);
  if (!found) return null;
  assertAccess(ctx.viewer, 'classroomActivity.read', found);
  return found.classroomActivity;
}

/**
 * A live lesson's events, for its classroom's teachers and its students (a visible session, or assigned):
 * with `after`, those stored after it first. Registered before the access check, which reads the latest
 * position: every event committed after that read arrives live, and those before it are the replay's.
 */
export async function followLesson(
  ctx: RequestContext,
  id: string,
  after: string | null | undefined,
): Promise<AsyncIterableIterator<LessonEventMessage>> {
  const numericId = parseNumericId(id);
  if (numericId === null) throw notFound();
  const subscription = ctx.settings.lessonEvents.subscribe(numericId);
  try {
    const found = await fetchView(ctx.read, id, viewerIdOf(ctx.viewer), FOLLOWER_VIEW);
    if (!found) throw notFound();
    assertAccess(ctx.viewer, 'lesson.follow', found);
    const latest = found.classroomActivity.lessonEventPosition;
    // A stream's Last-Event-ID is later than the `after` in the URL its EventSource reconnects to.
    const cursor = ctx.eventStream?.lastEventId ?? after;
    if (cursor === undefined || cursor === null) subscription.startLive(latest);
    else {
      const parsed = parseLessonEventId(cursor);
      if (!parsed || parsed.classroomActivityId !== numericId || parsed.position > latest)
        throw badUserInput(
          { after: ['is not a lesson event id or cursor of this classroom activity, or is ahead of its latest'] },
          'after: not a cursor of this classroom activity',
        );
      if ((await subscription.startAfter(parsed.position, latest)) === 'expired') throw lessonEventsExpired();
    }
  } catch (error) {
    subscription.end();
    throw error;
  }
  return subscription.iterator;
}
