import type { SqlRead } from '../../db/client.ts';
import { parseNumericId } from '../../core/validation.ts';
import type { Classroom, ClassroomActivity, Unit, User } from '../../generated/prisma/client.ts';
import type { ActivitySessionMapper, ClassroomActivityMapper, ConceptResultMapper } from './mappers.ts';
import {
  CONCEPT_COLUMNS,
  RESULT_COLUMNS,
  SESSION_COLUMNS,
  STUDENT_COLUMNS,
  CLASSROOM_ACTIVITY_COLUMNS,
  statementNameOf,
  type Column,
  type ViewPlan,
} from './view-plan.ts';

// A classroom activity as one viewer sees it (its teachers' reads, the checks before a change, a follower's)
// is fetched by one driver-level statement (src/db/client.ts, SqlRead) prepared from a plan (view-plan.ts). The
// sessions and their concept results are each an array of text arrays holding only the selected values (docs/performance.md).

/** One element of a row's text array, and its key in the object built from it (or in the object nested in that one). */
type Element = { column: Column; key: string; nested: boolean };

/** A plan with its statement and how its rows are decoded, prepared once per plan. */
export type PreparedView = {
  plan: ViewPlan;
  statement: { name: string; text: string; shaped: true };
  /** The elements of each session's array (after its id when `withId`), when sessions are read. */
  session: { withId: boolean; elements: Element[] } | null;
  /** The elements of each concept result's array (after its session's id), when they are read. */
  result: Element[] | null;
};

/** One classroom activity as the viewer sees it: what the plan asked for, and what the viewer may do. */
export type ClassroomActivityView = {
  /** Its id, classroom id and the columns the plan names, no other; with the sessions when the plan read them. */
  classroomActivity: ClassroomActivityMapper;
  /** undefined when the plan did not ask for them. */
  classroom: Classroom | undefined;
  owner: User | null | undefined;
  unit: Unit | null | undefined;
  viewerTeaches: boolean;
  /** Whether the viewer may follow the lesson (the plan's `follower`; else as `viewerTeaches`). */
  viewerFollows: boolean;
};

function sessionElements({ fields, student, conceptResults }: NonNullable<ViewPlan['sessions']>): PreparedView['session'] {
  const elements: Element[] = fields.map((field) => ({ column: SESSION_COLUMNS[field], key: field, nested: false }));
  if (student?.id) elements.push({ column: { sql: 'st.id::text', decode: Number }, key: 'id', nested: true });
  for (const field of student?.fields ?? []) elements.push({ column: STUDENT_COLUMNS[field], key: field, nested: true });
  // An array of arrays needs at least one element in each; concept results are matched by their session's id.
  return { withId: conceptResults !== null || elements.length === 0, elements };
}

function resultElements({ fields, concept }: NonNullable<NonNullable<ViewPlan['sessions']>['conceptResults']>): Element[] {
  const elements: Element[] = fields.map((field) => ({ column: RESULT_COLUMNS[field], key: field, nested: false }));
  for (const field of concept ?? []) elements.push({ column: CONCEPT_COLUMNS[field], key: field, nested: true });
  return elements;
}

/**
 * The plan's statement, prepared under its name (view-plan.ts, statementNameOf). $1 is the id, or with `many` an array
 * of ids (a supergraph's batch of representations); $2 the viewer's user id.
 */
export function prepareView(plan: ViewPlan, { many = false }: { many?: boolean } = {}): PreparedView {
  const { sessions } = plan;
  const session = sessions && sessionElements(sessions);
  const result = sessions?.conceptResults ? resultElements(sessions.conceptResults) : null;
  const columns = [
    'ca.id, ca.classroom_id AS "classroomId"',
    ...plan.fields.map((field) => CLASSROOM_ACTIVITY_COLUMNS[field]),
    'vt.id IS NOT NULL AS "viewerTeaches"',
  ];
  const joins: string[] = [];
  if (plan.follower)
    columns.push(`vt.id IS NOT NULL OR coalesce($2 = ANY(ca.assigned_student_ids), false) OR EXISTS (
      SELECT 1 FROM activity_sessions fs WHERE fs.classroom_activity_id = ca.id AND fs.user_id = $2 AND fs.visible) AS "viewerFollows"`);
  if (plan.classroom) {
    columns.push('c.id AS "classroom.id", c.name AS "classroom.name", c.visible AS "classroom.visible"');
    joins.push('JOIN classrooms c ON c.id = ca.classroom_id');
  }
  if (plan.owner) {
    columns.push(
      'o.id AS "owner.id", o.name AS "owner.name", o.email AS "owner.email", o.role AS "owner.role", o.created_at AS "owner.createdAt"',
    );
    joins.push(`LEFT JOIN LATERAL (
      SELECT u.* FROM classrooms_teachers ot JOIN users u ON u.id = ot.user_id
      WHERE ot.classroom_id = ca.classroom_id AND ot.role = 'owner' ORDER BY ot.id LIMIT 1) o ON true`);
  }
  if (plan.unit) {
    columns.push('un.id AS "unit.id", un.name AS "unit.name"');
    joins.push('LEFT JOIN units un ON un.id = ca.unit_id');
  }
  // The students: users.id is each session's user_id (NOT NULL, a foreign key), so the LEFT JOIN loses no session.
  const ofSessions = `FROM activity_sessions s ${sessions?.student ? 'LEFT JOIN users st ON st.id = s.user_id' : ''}
      WHERE s.classroom_activity_id = ca.id AND s.visible`;
  if (session) {
    const values = [...(session.withId ? ['s.id::text'] : []), ...session.elements.map(({ column }) => column.sql)];
    columns.push(`CASE WHEN vt.id IS NOT NULL THEN array(SELECT array[${values.join(', ')}] ${ofSessions} ORDER BY s.id) END AS sessions`);
  }
  if (result) {
    // OFFSET 0 keeps the subquery whole: each session's results are read through the index on their
    // session, whatever the planner's statistics say (without any, on a freshly loaded database, a plain
    // join read every concept result: docs/performance.md).
    const values = ['s.id::text', ...result.map(({ column }) => column.sql)];
    columns.push(`CASE WHEN vt.id IS NOT NULL THEN array(
      SELECT array[${values.join(', ')}]
      FROM activity_sessions s
      CROSS JOIN LATERAL (
        SELECT r.id, r.question_type, r.metadata, r.concept_id FROM concept_results r WHERE r.activity_session_id = s.id OFFSET 0) r
      ${sessions?.conceptResults?.concept ? 'JOIN concepts co ON co.id = r.concept_id' : ''}
      WHERE s.classroom_activity_id = ca.id AND s.visible ORDER BY s.id, r.id) END AS "conceptResults"`);
  }
  const text = `SELECT ${columns.join(',\n  ')}
    FROM classroom_activities ca
    ${joins.join('\n    ')}
    LEFT JOIN classrooms_teachers vt ON vt.classroom_id = ca.classroom_id AND vt.user_id = $2
    WHERE ${many ? 'ca.id = ANY($1::int[])' : 'ca.id = $1'} AND ca.visible`;
  return { plan, statement: { name: many ? `${statementNameOf(plan)}_many` : statementNameOf(plan), text, shaped: true }, session, result };
}

/** An object of the row's selected values, with the nested one (student, concept) when any element goes there. */
function decode(row: readonly (string | null)[], from: number, elements: readonly Element[], nestedKey: string): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  let nested: Record<string, unknown> | undefined;
  for (let i = 0; i < elements.length; i++) {
    const { column, key, nested: inNested } = elements[i]!;
    const value = column.decode(row[from + i]!);
    if (inNested) (nested ??= {})[key] = value;
    else object[key] = value;
  }
  if (nested) object[nestedKey] = nested;
  return object;
}

type Row = {
  viewerTeaches: boolean;
  viewerFollows?: boolean;
  sessions?: (string | null)[][] | null;
  conceptResults?: (string | null)[][] | null;
} & Record<string, unknown>;

/** A visible classroom activity as `viewerId` reads it, or null when unknown or hidden. */
export async function fetchView(
  read: SqlRead,
  id: string,
  viewerId: number | null,
  prepared: PreparedView,
): Promise<ClassroomActivityView | null> {
  const numericId = parseNumericId(id);
  if (numericId === null) return null;
  const [row] = await read<Row>(prepared.statement, [numericId, viewerId]);
  return row ? viewOfRow(row, prepared) : null;
}

/** The visible ones of these classroom activities, in one statement (a `many` plan), each as `viewerId` reads it. */
export async function fetchViews(
  read: SqlRead,
  ids: readonly number[],
  viewerId: number | null,
  prepared: PreparedView,
): Promise<ClassroomActivityView[]> {
  const rows = await read<Row>(prepared.statement, [ids, viewerId]);
  return rows.map((row) => viewOfRow(row, prepared));
}

function viewOfRow(row: Row, { plan, session, result }: PreparedView): ClassroomActivityView {
  const { viewerTeaches, viewerFollows, sessions: sessionRows, conceptResults: resultRows, ...columns } = row;
  const classroomActivity = {} as ClassroomActivity & Record<string, unknown>;
  for (const key in columns) if (!key.includes('.')) classroomActivity[key] = columns[key];
  const classroom = plan.classroom
    ? { id: row['classroom.id'] as number, name: row['classroom.name'] as string, visible: row['classroom.visible'] as boolean }
    : undefined;
  const owner = !plan.owner
    ? undefined
    : row['owner.id'] === null
      ? null
      : ({
          id: row['owner.id'],
          name: row['owner.name'],
          email: row['owner.email'],
          role: row['owner.role'],
          createdAt: row['owner.createdAt'],
        } as User);
  const unit = !plan.unit ? undefined : row['unit.id'] === null ? null : { id: row['unit.id'] as number, name: row['unit.name'] as string };

  // Only for a teacher (nothing is read for others); each session holds only the keys the plan named.
  if (session && sessionRows) {
    const sessions: ActivitySessionMapper[] = [];
    const bySessionId = result ? new Map<string, ConceptResultMapper[]>() : null;
    for (const values of sessionRows) {
      const decoded = decode(values, session.withId ? 1 : 0, session.elements, 'student') as unknown as ActivitySessionMapper;
      if (bySessionId) bySessionId.set(values[0]!, (decoded.conceptResults = []));
      sessions.push(decoded);
    }
    if (bySessionId && result)
      for (const values of resultRows ?? [])
        bySessionId.get(values[0]!)?.push(decode(values, 1, result, 'concept') as unknown as ConceptResultMapper);
    (classroomActivity as ClassroomActivityMapper).sessions = sessions;
  }
  return { classroomActivity, classroom, owner, unit, viewerTeaches, viewerFollows: viewerFollows ?? viewerTeaches };
}
