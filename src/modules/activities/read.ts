import type { SqlRead, Statement } from '../../db/client.ts';
import type { Activity } from '../../generated/prisma/client.ts';
import { addFieldError, badUserInput, quote, type FieldErrors } from '../../core/errors.ts';
import { isStorableText } from '../../core/json.ts';
import { parseNumericId } from '../../core/validation.ts';
import type { ActivityConnectionMapper, ActivityFlagMapper, ActivityMapper } from './mappers.ts';

// The activity reads the lessons client makes most, each one driver-level statement (src/db/client.ts,
// SqlRead) prepared under a name of its own.

const ACTIVITY_COLUMNS = `a.id, a.uid, a.name, a.description, a.flags, a.data, a.supporting_info AS "supportingInfo",
  a.follow_up_activity_id AS "followUpActivityId", a.activity_classification_id AS "classificationId",
  a.created_at AS "createdAt", a.updated_at AS "updatedAt"`;

// The classification as plain columns (one row, no JSON to build), gathered into its object below.
const WITH_CLASSIFICATION = `SELECT ${ACTIVITY_COLUMNS},
    c.id AS "classification.id", c.key AS "classification.key", c.name AS "classification.name"
  FROM activities a LEFT JOIN activity_classifications c ON c.id = a.activity_classification_id`;

// Each lookup by its own unique index (a single `uid = $1 OR id = $2` made the planner combine both
// indexes, or scan). An all-digit key: the id of the activity whose uid it is, else the key as an id; the
// row itself is then read by primary key.
const BY_UID: Statement = { name: 'activity_by_uid', text: `${WITH_CLASSIFICATION} WHERE a.uid = $1` };
const BY_UID_ELSE_ID: Statement = {
  name: 'activity_by_uid_else_id',
  text: `${WITH_CLASSIFICATION} WHERE a.id = coalesce((SELECT u.id FROM activities u WHERE u.uid = $1), $2)`,
};

type ActivityRow = Activity & { 'classification.id': number | null; 'classification.key': string; 'classification.name': string };

/** An activity by uid, else by numeric id (a uid match wins), with its classification. A key that is not all digits can only be a uid. */
export async function findActivity(read: SqlRead, idOrUid: string): Promise<ActivityMapper | null> {
  // Text PostgreSQL cannot hold (a NUL character) is no stored uid: it is not sent to the database.
  if (!isStorableText(idOrUid)) return null;
  const numericId = parseNumericId(idOrUid);
  const [row] =
    numericId === null ? await read<ActivityRow>(BY_UID, [idOrUid]) : await read<ActivityRow>(BY_UID_ELSE_ID, [idOrUid, numericId]);
  if (!row) return null;
  const { 'classification.id': id, 'classification.key': key, 'classification.name': name, ...activity } = row;
  return { ...activity, classification: id === null ? null : { id, key, name } };
}

export const PAGE_SIZE_LIMIT = 100;

export const activityCursor = (id: number) => Buffer.from(`activity:${id}`).toString('base64url');
function idAfterCursor(cursor: string): number | null {
  const match = /^activity:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? parseNumericId(match[1]!) : null;
}

type PageRow = { [K in keyof Activity]: Activity[K] | null } & { totalCount?: number };

/**
 * A page's statement: the page (keyset: after an id, by the primary key) and, when asked for, the count
 * of all matching activities, in one round trip. Without a page row (past the end) the count still comes,
 * on a row of nulls. Named for the flag filter or not (so that the GIN index serves it), the count or
 * not, and its LIMIT, written into the text (an integer from 1 to PAGE_SIZE_LIMIT + 1, checked before):
 * with a LIMIT parameter PostgreSQL planned the statement afresh at every execution (docs/performance.md).
 */
function pageStatement(withFlag: boolean, withCount: boolean, limit: number): Statement {
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_SIZE_LIMIT + 1) throw new Error(`not a page limit: ${limit}`);
  const filter = withFlag ? 'a.flags @> ARRAY[$2::text]' : 'true';
  const page = `SELECT ${ACTIVITY_COLUMNS} FROM activities a WHERE a.id > $1 AND ${filter} ORDER BY a.id LIMIT ${limit}`;
  const text = withCount
    ? `SELECT p.*, t."totalCount" FROM (SELECT count(*)::int AS "totalCount" FROM activities a WHERE ${filter}) t
       LEFT JOIN LATERAL (${page}) p ON true`
    : page;
  return { name: `activity_page${withFlag ? '_flag' : ''}${withCount ? '_count' : ''}_${limit}`, text };
}

export type PageArgs = { first?: number | null; after?: string | null; flag?: string | null };

/** A page of activities in id order, after a cursor, with a flag or not; BAD_USER_INPUT for a bad size or cursor. */
export async function pageOfActivities(
  read: SqlRead,
  args: PageArgs,
  { withCount }: { withCount: boolean },
): Promise<ActivityConnectionMapper> {
  const first = args.first ?? 20;
  const fields: FieldErrors = {};
  if (!Number.isInteger(first) || first < 0 || first > PAGE_SIZE_LIMIT)
    addFieldError(fields, 'first', `must be between 0 and ${PAGE_SIZE_LIMIT}; got ${quote(first)}`);
  const afterId = args.after == null ? 0 : idAfterCursor(args.after);
  if (afterId === null) addFieldError(fields, 'after', `is not a cursor from this API; got ${quote(args.after)}`);
  if (Object.keys(fields).length > 0) throw badUserInput(fields);
  // A flag PostgreSQL cannot hold (a NUL character) is no stored flag: nothing matches it, nothing is sent.
  if (args.flag != null && !isStorableText(args.flag)) return { nodes: [], hasNextPage: false, totalCount: () => Promise.resolve(0) };

  const withFlag = args.flag != null;
  const rows = await read<PageRow>(pageStatement(withFlag, withCount, first + 1), withFlag ? [afterId, args.flag] : [afterId]);
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

/** Every activity's uid and first flag: one narrow query; thousands of rows. */
export function uidsAndFlags(read: SqlRead): Promise<ActivityFlagMapper[]> {
  return read<ActivityFlagMapper>('SELECT uid, flags[1] AS flag FROM activities ORDER BY id', []);
}
