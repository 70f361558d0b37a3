import { assertAccess } from '../../auth/access.ts';
import { addFieldError, badUserInput, notFound, quote, type FieldErrors } from '../../core/errors.ts';
import { isStorableText } from '../../core/json.ts';
import { newUid } from '../../core/uids.ts';
import { parseNumericId } from '../../core/validation.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { Prisma, type Activity } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../context.ts';
import { parseActivityChanges, parseNewActivity, type ActivityFields } from './activity.input.ts';
import { activityById, activityByUid } from './loaders.ts';
import type { ActivityMapper } from './mappers.ts';
import { findActivity, pageOfActivities, uidsAndFlags, type PageArgs } from './read.ts';

// What can be done with activities, for GraphQL and the REST shim alike: anyone reads them (a wrong token
// is still 401), staff write them. Each write settles access (404, 401, 403) before it reads its input.

/** An activity by uid or numeric id, else null. */
export async function readActivity(ctx: RequestContext, id: string): Promise<ActivityMapper | null> {
  const activity = await findActivity(ctx.read, id);
  if (activity) assertAccess(ctx.viewer, 'activity.read');
  return activity;
}

/**
 * An activity a supergraph names by its `id` or its `uid` (src/modules/activities/entities.ts), as the root
 * field reads it: anyone may, a wrong credential may not; null when unknown. Batched: one statement per key kind.
 */
export async function activityByKey(ctx: RequestContext, key: { id?: unknown; uid?: unknown }): Promise<ActivityMapper | null> {
  const id = typeof key.id === 'string' || typeof key.id === 'number' ? parseNumericId(key.id) : null;
  const activity =
    id !== null
      ? await activityById(ctx).load(id)
      : typeof key.uid === 'string' && isStorableText(key.uid)
        ? await activityByUid(ctx).load(key.uid)
        : null;
  if (activity) assertAccess(ctx.viewer, 'activity.read');
  return activity;
}

export function listActivities(ctx: RequestContext, args: PageArgs, options: { withCount: boolean }) {
  assertAccess(ctx.viewer, 'activity.read');
  return pageOfActivities(ctx.read, args, options);
}

export function activityFlags(ctx: RequestContext) {
  assertAccess(ctx.viewer, 'activity.read');
  return uidsAndFlags(ctx.read);
}

async function existingActivity(ctx: RequestContext, id: string): Promise<ActivityMapper> {
  const activity = await findActivity(ctx.read, id);
  if (!activity) throw notFound();
  return activity;
}

/** Like the original (`before_create :flag_as_beta, unless: :flags?`): no flags, or an empty list, means beta. */
const DEFAULT_FLAGS = ['beta'];

/** Staff create an activity: CreateActivityInput's shape, checked once access is settled. */
export async function createActivity(ctx: RequestContext, input: unknown): Promise<Activity> {
  assertAccess(ctx.viewer, 'activity.create');
  const fields = parseNewActivity(input);
  return inTransaction(ctx.db, async (tx) => {
    await checkReferences(tx, fields);
    return saveUnique(fields.uid, () =>
      tx.activity.create({
        data: {
          uid: fields.uid ?? newUid(),
          name: fields.name,
          description: fields.description ?? '',
          flags: fields.flags?.length ? fields.flags : DEFAULT_FLAGS,
          data: (fields.data ?? {}) as Prisma.InputJsonObject,
          supportingInfo: fields.supportingInfo ?? null,
          followUpActivityId: fields.followUpActivityId ?? null,
          classificationId: fields.classificationId ?? null,
        },
      }),
    );
  });
}

/** Staff update an activity: UpdateActivityInput's shape, checked once access is settled. */
export async function updateActivity(ctx: RequestContext, id: string, input: unknown): Promise<Activity> {
  const activity = await existingActivity(ctx, id);
  assertAccess(ctx.viewer, 'activity.update');
  const { data, ...rest } = parseActivityChanges(input);
  return inTransaction(ctx.db, async (tx) => {
    await checkReferences(tx, rest, activity.id);
    return saveUnique(rest.uid, () =>
      tx.activity.update({
        where: { id: activity.id },
        data: { ...rest, ...(data === undefined ? {} : { data: data as Prisma.InputJsonObject }) },
      }),
    );
  });
}

export async function deleteActivity(ctx: RequestContext, id: string): Promise<{ id: number }> {
  const activity = await existingActivity(ctx, id);
  assertAccess(ctx.viewer, 'activity.delete');
  await inTransaction(ctx.db, (tx) => tx.activity.delete({ where: { id: activity.id } }));
  return { id: activity.id };
}

/** The follow-up activity and the classification a write names must exist (and an activity is not its own follow-up). */
async function checkReferences(tx: Tx, fields: ActivityFields, selfId?: number): Promise<void> {
  const errors: FieldErrors = {};
  const { followUpActivityId, classificationId } = fields;
  if (followUpActivityId !== undefined) {
    if (followUpActivityId === selfId) addFieldError(errors, 'followUpActivityId', 'must not be the activity itself');
    else if (!(await tx.activity.findUnique({ where: { id: followUpActivityId }, select: { id: true } })))
      addFieldError(errors, 'followUpActivityId', `is not a known activity; got ${quote(followUpActivityId)}`);
  }
  if (
    classificationId !== undefined &&
    !(await tx.activityClassification.findUnique({ where: { id: classificationId }, select: { id: true } }))
  )
    addFieldError(errors, 'classificationId', `is not a known classification; got ${quote(classificationId)}`);
  if (Object.keys(errors).length > 0) throw badUserInput(errors);
}

/** Runs a write; a duplicate uid (caught by the unique index, also under a race) is a field error. */
async function saveUnique(uid: string | undefined, write: () => Promise<Activity>): Promise<Activity> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw badUserInput({ uid: [`has already been taken; got ${quote(uid)}`] });
    }
    throw error;
  }
}
