import { GraphQLError } from 'graphql';
import { requireUser } from '../../auth/guards.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { badUserInput, forbidden, notFound, type FieldErrors } from '../../core/errors.ts';
import { parseNumericId } from '../../core/validation.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { ClassroomActivity, User } from '../../generated/prisma/client.ts';
import type { GraphQLContext } from '../context.ts';
import { finishInTransaction, lookUpReferences } from './finish-lesson.ts';
import { parseFinishLessonInput, uidReferences, type FinishLessonCommand } from './finish-lesson.input.ts';
import { launchLesson as launch, unpinAndLock as lock } from './launch-and-lock.ts';
import { classroomActivityReadById, classroomById, ownerByClassroomId, unitById } from './loaders.ts';
import type { ClassroomActivityMapper, FinishLessonPayloadMapper } from './mappers.ts';
import { plannedRead, readClassroomActivity, type ClassroomActivityRead, type PlannedRead } from './read.ts';

// What can be done with a classroom activity, for GraphQL and the REST shim alike. Its teachers read and
// change it, its teachers and students follow it live; every check runs in the order 404 → 401 → 403
// (docs/contract.md, Errors), and a change reads its input only once access is settled.

/** The read before a change: the columns the changes need, and what the change's answer may read next. */
const BEFORE_A_CHANGE = plannedRead({ fields: ['activity'], classroom: true, owner: true, unit: true, follower: false, sessions: null });
const FOR_A_FOLLOWER = plannedRead({ fields: [], classroom: false, owner: false, unit: false, follower: true, sessions: null });

const viewerIdOf = (viewer: Viewer) => (viewer.kind === 'user' ? viewer.user.id : null);

/** Only a teacher of the classroom (owner or co-teacher) may see or change its classroom activities. */
function requireTeacher(ctx: GraphQLContext, found: ClassroomActivityRead): User {
  const user = requireUser(ctx.viewer);
  if (!found.viewerTeaches) throw forbidden('Only a teacher of this classroom may do this');
  return user;
}

/** What the read brought along goes to the loaders: the fields that read it next cost no statement. */
function primeLoaders(ctx: GraphQLContext, { classroomActivity, classroom, owner, unit }: ClassroomActivityRead): void {
  if (classroom) classroomById(ctx).prime(classroom.id, classroom);
  if (owner !== undefined) ownerByClassroomId(ctx).prime(classroomActivity.classroomId, owner);
  if (unit) unitById(ctx).prime(unit.id, unit);
}

/** The classroom activity as its teacher reads it, with what `planned` brings; null when unknown or hidden. */
export async function readForTeacher(ctx: GraphQLContext, id: string, planned: PlannedRead): Promise<ClassroomActivityMapper | null> {
  const numericId = parseNumericId(id);
  if (numericId !== null) ctx.readsClassroomActivity?.(numericId);
  const found = await readClassroomActivity(ctx.read, id, viewerIdOf(ctx.viewer), planned);
  if (!found) return null;
  requireTeacher(ctx, found);
  primeLoaders(ctx, found);
  return found.classroomActivity;
}

/** The classroom activity a teacher is about to change, else NOT_FOUND, UNAUTHENTICATED or FORBIDDEN. */
async function beforeAChange(ctx: GraphQLContext, id: string): Promise<{ classroomActivity: ClassroomActivity; teacher: User }> {
  const found = await readClassroomActivity(ctx.read, id, viewerIdOf(ctx.viewer), BEFORE_A_CHANGE);
  if (!found) throw notFound();
  const teacher = requireTeacher(ctx, found);
  primeLoaders(ctx, found);
  return { classroomActivity: found.classroomActivity, teacher };
}

/** A teacher ends the lesson: FinishLessonInput's shape, checked once access is settled. */
export async function finishLesson(ctx: GraphQLContext, id: string, input: unknown): Promise<FinishLessonPayloadMapper> {
  const { classroomActivity, teacher } = await beforeAChange(ctx, id);
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
async function withUnknownUids(ctx: GraphQLContext, classroomActivityId: number, error: unknown, input: unknown): Promise<unknown> {
  if (!(error instanceof GraphQLError) || error.extensions.code !== 'BAD_USER_INPUT') return error;
  const references = uidReferences(input);
  if (references.length === 0) return error;
  const { errors } = await lookUpReferences(ctx.db, classroomActivityId, references);
  if (Object.keys(errors).length === 0) return error;
  return badUserInput({ ...(error.extensions.fields as FieldErrors), ...errors }, error.message);
}

export async function unpinAndLock(ctx: GraphQLContext, id: string): Promise<ClassroomActivity> {
  const { classroomActivity } = await beforeAChange(ctx, id);
  return inTransaction(ctx.db, (tx) => lock(tx, classroomActivity.id));
}

export async function launchLesson(ctx: GraphQLContext, id: string): Promise<ClassroomActivity> {
  const { classroomActivity } = await beforeAChange(ctx, id);
  return inTransaction(ctx.db, (tx) => launch(tx, classroomActivity));
}

/**
 * A classroom activity a supergraph names by its id (src/modules/classroom-activities/entities.ts), as the
 * root field reads it: null when unknown or hidden, UNAUTHENTICATED or FORBIDDEN unless the viewer teaches
 * its classroom. Batched: one statement for all the representations of a request.
 */
export async function classroomActivityById(ctx: GraphQLContext, id: unknown): Promise<ClassroomActivityMapper | null> {
  const numericId = typeof id === 'string' || typeof id === 'number' ? parseNumericId(id) : null;
  if (numericId !== null) ctx.readsClassroomActivity?.(numericId);
  const found = numericId === null ? null : await classroomActivityReadById(ctx).load(numericId);
  if (!found) return null;
  requireTeacher(ctx, found);
  return found.classroomActivity;
}

/** A live lesson's events from now on, for its classroom's teachers and its students (a visible session, or assigned). */
export async function followLesson(ctx: GraphQLContext, id: string): Promise<AsyncIterableIterator<unknown>> {
  const found = await readClassroomActivity(ctx.read, id, viewerIdOf(ctx.viewer), FOR_A_FOLLOWER);
  if (!found) throw notFound();
  requireUser(ctx.viewer);
  if (!found.viewerFollows) throw forbidden('Only the teachers and students of this lesson may follow it');
  return ctx.settings.lessonEvents.subscribe(found.classroomActivity.id);
}
