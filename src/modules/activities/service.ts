import { randomBytes } from 'node:crypto';
import type { SqlRead } from '../../db/client.ts';
import { Prisma, type Activity, type ActivityClassification } from '../../generated/prisma/client.ts';
import { addFieldError, badUserInput, quote, type FieldErrors } from '../../core/errors.ts';
import type { ActivityPage, ActivityUidAndFlag } from '../../graphql/mappers.ts';
import { isStorableText } from '../../core/json.ts';
import { parseNumericId } from '../../core/validation.ts';
import type { ActivityFields, NewActivityFields } from './input.ts';

type Tx = Prisma.TransactionClient;

export type ActivityWithClassification = { activity: Activity; classification: ActivityClassification | null };

const ACTIVITY_COLUMNS = `a.id, a.uid, a.name, a.description, a.flags, a.data, a.supporting_info AS "supportingInfo",
  a.follow_up_activity_id AS "followUpActivityId", a.activity_classification_id AS "classificationId",
  a.created_at AS "createdAt", a.updated_at AS "updatedAt"`;

// The classification as plain columns (one row, no JSON to build), gathered into its object below.
const WITH_CLASSIFICATION = `SELECT ${ACTIVITY_COLUMNS},
    c.id AS "classification.id", c.key AS "classification.key", c.name AS "classification.name"
  FROM activities a LEFT JOIN activity_classifications c ON c.id = a.activity_classification_id`;

// Each lookup by its own unique index (a single `uid = $1 OR id = $2` made the planner combine both
// indexes, or scan), each a named statement (see SqlRead). An all-digit key: the id of the activity
// whose uid it is, else the key as an id; the row itself is then read by primary key.
const BY_UID = `${WITH_CLASSIFICATION} WHERE a.uid = $1`;
const BY_UID_ELSE_ID = `${WITH_CLASSIFICATION} WHERE a.id = coalesce((SELECT u.id FROM activities u WHERE u.uid = $1), $2)`;

type ActivityRow = Activity & { 'classification.id': number | null; 'classification.key': string; 'classification.name': string };

/**
 * An activity by uid, else by numeric id (a uid match wins), with its classification. The lessons
 * client's most frequent read: one driver-level statement (see SqlRead). A key that is not all digits
 * can only be a uid.
 */
export async function findActivity(read: SqlRead, idOrUid: string): Promise<ActivityWithClassification | null> {
  // Text PostgreSQL cannot hold (a NUL character) is no stored uid: it is not sent to the database.
  if (!isStorableText(idOrUid)) return null;
  const numericId = parseNumericId(idOrUid);
  const [row] =
    numericId === null
      ? await read<ActivityRow>(BY_UID, [idOrUid], 'activity_by_uid')
      : await read<ActivityRow>(BY_UID_ELSE_ID, [idOrUid, numericId], 'activity_by_uid_else_id');
  if (!row) return null;
  const { 'classification.id': id, 'classification.key': key, 'classification.name': name, ...activity } = row;
  return { activity, classification: id === null ? null : { id, key, name } };
}

export const PAGE_SIZE_LIMIT = 100;

const encodeCursor = (id: number) => Buffer.from(`activity:${id}`).toString('base64url');
function decodeCursor(cursor: string): number | null {
  const match = /^activity:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? parseNumericId(match[1]!) : null;
}
export { encodeCursor as activityCursor };

type PageRow = { [K in keyof Activity]: Activity[K] | null } & { totalCount?: number };

/**
 * A page's statement: the page (keyset: after an id, by the primary key) and, when asked for, the count
 * of all matching activities, in one round trip. Without a page row (past the end) the count still comes,
 * on a row of nulls. Each is a named statement, with the flag filter or not (so that the GIN index serves
 * it), with the count or not, and for its LIMIT: the limit is written into the text (an integer from 1 to
 * PAGE_SIZE_LIMIT + 1, checked before), because a LIMIT parameter made PostgreSQL plan the statement
 * afresh at every execution, its generic plan judged worse: 64 against 48 µs of PostgreSQL's CPU for a
 * page of 20 (README, Performance). At most 4 × 101 statements, in practice the one or two page sizes a
 * client uses.
 */
function pageStatement(withFlag: boolean, withCount: boolean, limit: number): { name: string; text: string } {
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_SIZE_LIMIT + 1) throw new Error(`not a page limit: ${limit}`);
  const filter = withFlag ? 'a.flags @> ARRAY[$2::text]' : 'true';
  const page = `SELECT ${ACTIVITY_COLUMNS} FROM activities a WHERE a.id > $1 AND ${filter} ORDER BY a.id LIMIT ${limit}`;
  const text = withCount
    ? `SELECT p.*, t."totalCount" FROM (SELECT count(*)::int AS "totalCount" FROM activities a WHERE ${filter}) t
       LEFT JOIN LATERAL (${page}) p ON true`
    : page;
  return { name: `activity_page${withFlag ? '_flag' : ''}${withCount ? '_count' : ''}_${limit}`, text };
}
const pageStatements = new Map<string, { name: string; text: string }>();
function pageStatementOf(withFlag: boolean, withCount: boolean, limit: number) {
  const key = `${withFlag}/${withCount}/${limit}`;
  let statement = pageStatements.get(key);
  if (!statement) pageStatements.set(key, (statement = pageStatement(withFlag, withCount, limit)));
  return statement;
}

export async function listActivities(
  read: SqlRead,
  args: { first?: number | null; after?: string | null; flag?: string | null },
  { withCount }: { withCount: boolean },
): Promise<ActivityPage> {
  const first = args.first ?? 20;
  const fields: FieldErrors = {};
  if (!Number.isInteger(first) || first < 0 || first > PAGE_SIZE_LIMIT)
    addFieldError(fields, 'first', `must be between 0 and ${PAGE_SIZE_LIMIT}; got ${quote(first)}`);
  const afterId = args.after == null ? 0 : decodeCursor(args.after);
  if (afterId === null) addFieldError(fields, 'after', `is not a cursor from this API; got ${quote(args.after)}`);
  if (Object.keys(fields).length > 0) throw badUserInput(fields);
  // A flag PostgreSQL cannot hold (a NUL character) is no stored flag: nothing matches it, nothing is sent.
  if (args.flag != null && !isStorableText(args.flag)) return { nodes: [], hasNextPage: false, totalCount: () => Promise.resolve(0) };

  const withFlag = args.flag != null;
  const { name, text } = pageStatementOf(withFlag, withCount, first + 1);
  const rows = await read<PageRow>(text, withFlag ? [afterId, args.flag] : [afterId], name);
  // In id order: sorted here rather than by the database (at most 101 rows).
  const nodes = rows.filter((row): row is PageRow & Activity => row.id !== null).sort((a, b) => a.id - b.id);
  const total = rows[0]?.totalCount;
  for (const node of nodes) delete node.totalCount;
  return {
    nodes: nodes.slice(0, first),
    hasNextPage: nodes.length > first,
    // Asked for without the look-ahead seeing it (it always does): counted then.
    totalCount: async () =>
      total ??
      (
        await read<{ n: number }>(
          `SELECT count(*)::int AS n FROM activities a WHERE ${withFlag ? 'a.flags @> ARRAY[$1::text]' : 'true'}`,
          withFlag ? [args.flag] : [],
        )
      )[0]!.n,
  };
}

/** Every activity's uid and first flag: one narrow driver-level query (see SqlRead); thousands of rows. */
export function activityFlags(read: SqlRead): Promise<ActivityUidAndFlag[]> {
  return read<ActivityUidAndFlag>('SELECT uid, flags[1] AS flag FROM activities ORDER BY id', []);
}

/** Like the original (`before_create :flag_as_beta, unless: :flags?`): no flags, or an empty list, means beta. */
const DEFAULT_FLAGS = ['beta'];

/** 22 URL-safe base64 characters, like the uids the lessons client makes. */
export const newActivityUid = () => randomBytes(16).toString('base64url');

export async function createActivity(tx: Tx, fields: NewActivityFields): Promise<Activity> {
  await checkReferences(tx, fields);
  return saveUnique(fields.uid, () =>
    tx.activity.create({
      data: {
        uid: fields.uid ?? newActivityUid(),
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
}

export async function updateActivity(tx: Tx, activity: Activity, fields: ActivityFields): Promise<Activity> {
  await checkReferences(tx, fields, activity.id);
  const { data, ...rest } = fields;
  return saveUnique(fields.uid, () =>
    tx.activity.update({
      where: { id: activity.id },
      data: { ...rest, ...(data === undefined ? {} : { data: data as Prisma.InputJsonObject }) },
    }),
  );
}

export async function deleteActivity(tx: Tx, activity: Activity): Promise<void> {
  await tx.activity.delete({ where: { id: activity.id } });
}

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
