import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import type {
  ClassroomActivity as ClassroomActivityModel,
  Classroom as ClassroomModel,
  Unit as UnitModel,
  Concept as ConceptModel,
} from '../../generated/prisma/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { badUserInput, forbidden, notFound, type FieldErrors } from '../../core/errors.ts';
import type { ConceptResultWithConcept, FinishLessonResult, SessionWithStudent } from '../../graphql/mappers.ts';
import type { Strict } from '../../core/strict.ts';
import type {
  ActivitySessionResolvers,
  ClassroomActivityResolvers,
  ClassroomResolvers,
  ConceptResolvers,
  ConceptResultResolvers,
  FinishLessonPayloadResolvers,
  Resolvers,
  UnitResolvers,
} from '../../graphql/types.generated.ts';
import { finishLesson, lookUpReferences } from './finish-lesson.ts';
import { parseFinishLessonInput, uidReferences, type FinishLessonCommand } from './finish-lesson.input.ts';
import { requireUser } from '../../auth/guards.ts';
import { selectionAt } from '../../core/look-ahead.ts';
import type { LessonEventMessage } from './lesson-events.ts';
import { readClassroomActivity, readPlanOf } from './read.ts';
import { findClassroomActivity, launchLesson, ownerOf, requireTeacherOf, unpinAndLock } from './service.ts';

/**
 * The classroom activity `id` if the viewer teaches its classroom, else null when unknown or hidden, or
 * UNAUTHENTICATED / FORBIDDEN (404 → 401 → 403, docs/contract.md, Errors). Its classroom, owner and
 * unit came with it: they are handed to the loaders, so the fields that read them next cost no statement.
 */
async function readAsTeacher(ctx: GraphQLContext, id: string) {
  const viewerId = ctx.viewer.kind === 'user' ? ctx.viewer.user.id : null;
  const found = await findClassroomActivity(ctx.db, id, viewerId);
  if (!found) return null;
  const teacher = requireTeacherOf(ctx.viewer, found);
  const {
    classroom: { teachers: _teachers, ...classroom },
    unit,
    ...classroomActivity
  } = found;
  ctx.loaders.classroomById.prime(classroom.id, classroom);
  ctx.loaders.ownerByClassroomId.prime(classroom.id, ownerOf(found));
  if (unit) ctx.loaders.unitById.prime(unit.id, unit);
  return { classroomActivity, teacher };
}

/**
 * The sessions Query.classroomActivity read with the classroom activity it returned: they hold only the
 * keys that operation selects, so they answer that object's fields and are kept out of the shared loader
 * (another field of the same request, say an alias, may select more of the same sessions).
 */
const sessionsReadWith = new WeakMap<ClassroomActivityModel, SessionWithStudent[]>();
const sessionsOf = (classroomActivity: ClassroomActivityModel, ctx: GraphQLContext) =>
  sessionsReadWith.get(classroomActivity) ?? ctx.loaders.sessionsByClassroomActivityId.load(classroomActivity.id);
/** Likewise each of those sessions' concept results. */
const conceptResultsReadWith = new WeakMap<SessionWithStudent, ConceptResultWithConcept[]>();

/**
 * Query.classroomActivity: as readAsTeacher, in one driver-level statement that also brings what the
 * operation selects below it (the classroom's owner, the unit, the sessions with only their selected fields,
 * their students and concept results: src/graphql/look-ahead.ts, readPlanOf), handed to the fields that read them.
 */
async function readForQuery(ctx: GraphQLContext, id: string, info: GraphQLResolveInfo): Promise<ClassroomActivityModel | null> {
  const viewerId = ctx.viewer.kind === 'user' ? ctx.viewer.user.id : null;
  const found = await readClassroomActivity(ctx.read, id, viewerId, readPlanOf(selectionAt(info), info.fragments));
  if (!found) return null;
  requireUser(ctx.viewer);
  if (!found.viewerTeaches) throw forbidden('Only a teacher of this classroom may do this');
  const { classroomActivity, classroom, owner, unit, sessions, conceptResults } = found;
  if (classroom) ctx.loaders.classroomById.prime(classroom.id, classroom);
  if (owner !== undefined) ctx.loaders.ownerByClassroomId.prime(classroomActivity.classroomId, owner);
  if (unit) ctx.loaders.unitById.prime(unit.id, unit);
  if (sessions) sessionsReadWith.set(classroomActivity, sessions);
  if (conceptResults) for (const [session, results] of conceptResults) conceptResultsReadWith.set(session, results);
  return classroomActivity;
}

/** As readAsTeacher, but an unknown or hidden id is NOT_FOUND. */
async function requireTaughtClassroomActivity(ctx: GraphQLContext, id: string) {
  const found = await readAsTeacher(ctx, id);
  if (!found) throw notFound();
  return found;
}

/**
 * A 422 names every offender (docs/contract.md, finish_lesson): when the input is malformed, the uids that
 * name no visible session of this classroom activity, or no concept, are added to the malformed fields.
 */
async function addUnknownUidErrors(ctx: GraphQLContext, classroomActivityId: number, error: unknown, input: unknown): Promise<unknown> {
  if (!(error instanceof GraphQLError) || error.extensions.code !== 'BAD_USER_INPUT') return error;
  const references = uidReferences(input);
  if (references.length === 0) return error;
  const { errors } = await lookUpReferences(ctx.db, classroomActivityId, references);
  if (Object.keys(errors).length === 0) return error;
  return badUserInput({ ...(error.extensions.fields as FieldErrors), ...errors }, error.message);
}

/**
 * A teacher of the classroom ends the lesson. Access is settled before the input is read (404, 401, 403,
 * then 400/413/422): `readInput` gives FinishLessonInput's shape, from the mutation or from a body
 * translated into it.
 */
export async function finishLessonAsTeacher(ctx: GraphQLContext, id: string, readInput: () => unknown): Promise<FinishLessonResult> {
  const { classroomActivity, teacher } = await requireTaughtClassroomActivity(ctx, id);
  let input: unknown;
  let command: FinishLessonCommand;
  try {
    input = readInput();
    command = parseFinishLessonInput(input);
  } catch (error) {
    throw await addUnknownUidErrors(ctx, classroomActivity.id, error, input);
  }
  return inTransaction(ctx.db, (tx) =>
    finishLesson(tx, { classroomActivityId: classroomActivity.id, teacherId: teacher.id, command, appUrl: ctx.settings.appUrl }),
  );
}

/**
 * Who may follow a live lesson: its classroom's teachers, and students with a visible session in it or
 * among its assigned students (404 → 401 → 403, as every other check).
 */
async function requireLessonFollower(ctx: GraphQLContext, id: string) {
  const viewerId = ctx.viewer.kind === 'user' ? ctx.viewer.user.id : null;
  const found = await findClassroomActivity(ctx.db, id, viewerId);
  if (!found) throw notFound();
  const user = requireUser(ctx.viewer);
  if (found.classroom.teachers.some((teacher) => teacher.userId === user.id) || found.assignedStudentIds.includes(user.id)) return found;
  const session = await ctx.db.activitySession.findFirst({
    where: { classroomActivityId: found.id, userId: user.id, visible: true },
    select: { id: true },
  });
  if (!session) throw forbidden('Only the teachers and students of this lesson may follow it');
  return found;
}

export const classroomActivityResolvers = {
  Subscription: {
    lessonEvents: {
      subscribe: async (_parent, { classroomActivityId }, ctx) => {
        const { id } = await requireLessonFollower(ctx, classroomActivityId);
        if (!ctx.settings.lessonEvents) throw new Error('Live lesson events are not served here');
        return ctx.settings.lessonEvents.subscribe(id);
      },
      resolve: (event: LessonEventMessage) => event,
    },
  },
  Query: {
    classroomActivity: (_parent, { id }, ctx, info) => readForQuery(ctx, id, info),
  },
  Mutation: {
    finishLesson: (_parent, { id, input }, ctx) => finishLessonAsTeacher(ctx, id, () => input),
    unpinAndLock: async (_parent, { id }, ctx) => {
      const { classroomActivity } = await requireTaughtClassroomActivity(ctx, id);
      return inTransaction(ctx.db, (tx) => unpinAndLock(tx, classroomActivity));
    },
    launchLesson: async (_parent, { id }, ctx) => {
      const { classroomActivity } = await requireTaughtClassroomActivity(ctx, id);
      return inTransaction(ctx.db, (tx) => launchLesson(tx, classroomActivity));
    },
  },
  ClassroomActivity: {
    activity: async (classroomActivity, _args, ctx) => (await ctx.loaders.activityById.load(classroomActivity.activityId))!,
    classroom: async (classroomActivity, _args, ctx) => (await ctx.loaders.classroomById.load(classroomActivity.classroomId))!,
    unit: (classroomActivity, _args, ctx) =>
      classroomActivity.unitId === null ? null : ctx.loaders.unitById.load(classroomActivity.unitId),
    studentNames: async (classroomActivity, _args, ctx) =>
      (await sessionsOf(classroomActivity, ctx)).map((session) => ({
        activitySessionUid: session.uid,
        name: session.student.name,
      })),
    sessions: (classroomActivity, _args, ctx) => sessionsOf(classroomActivity, ctx),
  } satisfies Strict<ClassroomActivityResolvers, ClassroomActivityModel>,
  Classroom: {
    teacher: (classroom, _args, ctx) => ctx.loaders.ownerByClassroomId.load(classroom.id),
  } satisfies Strict<ClassroomResolvers, ClassroomModel>,
  Unit: {} satisfies Strict<UnitResolvers, UnitModel>,
  ActivitySession: {
    conceptResults: (session, _args, ctx) => conceptResultsReadWith.get(session) ?? ctx.loaders.conceptResultsBySessionId.load(session.id),
  } satisfies Strict<ActivitySessionResolvers, SessionWithStudent>,
  ConceptResult: {} satisfies Strict<ConceptResultResolvers, ConceptResultWithConcept>,
  Concept: {} satisfies Strict<ConceptResolvers, ConceptModel>,
  FinishLessonPayload: {} satisfies Strict<FinishLessonPayloadResolvers, FinishLessonResult>,
} satisfies Resolvers;
