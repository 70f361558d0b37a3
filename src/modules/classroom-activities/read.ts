import type { GraphQLResolveInfo } from 'graphql';
import type { SqlRead } from '../../db/client.ts';
import type { Classroom, ClassroomActivity, Unit, User } from '../../generated/prisma/client.ts';
import { selectionOf, type Selection } from '../../core/look-ahead.ts';
import type { ConceptResultWithConcept, SessionWithStudent } from '../../graphql/mappers.ts';
import { parseNumericId } from '../../core/validation.ts';

// The classroom activity as a teacher reads it (Query.classroomActivity, REST student_names and
// teacher_and_classroom_name): one driver-level statement (see SqlRead) that brings, with the classroom
// activity, whether the viewer teaches its classroom and, when the operation selects them, its classroom,
// the classroom's owner, its unit, and its visible sessions with their students and their concept results.
// Only what the operation selects is read (readPlanOf). The one-to-one parts are plain columns; the
// sessions and the concept results are each an array of text arrays, one per row, holding only the
// selected values: measured, PostgreSQL builds that for about half what JSON objects cost it, and both
// drivers parse it (README, Performance).

/** A value as the statement sends it (text, or NULL) and how it is read back. */
type Column = { sql: string; decode: (text: string | null) => unknown };
const asText = (sql: string): Column => ({ sql, decode: (text) => text });
/** Epoch milliseconds: every timestamp column is timestamptz(3), so the value is exact. */
const asDate = (sql: string): Column => ({
  sql: `(extract(epoch FROM ${sql}) * 1000)::int8::text`,
  decode: (text) => (text === null ? null : new Date(Number(text))),
});

// The fields of ActivitySession, User, ConceptResult and Concept the statement can read, and the column
// each reads: a fixed allow-list, so no name that comes with a request ever reaches the SQL text.
const SESSION_COLUMNS = {
  uid: asText('s.uid'),
  state: asText('s.state::text'),
  percentage: { sql: 's.percentage::text', decode: (text) => (text === null ? null : Number(text)) },
  completedAt: asDate('s.completed_at'),
  isFinalScore: { sql: 's.is_final_score::text', decode: (text) => text === 'true' },
} satisfies Record<string, Column>;
const STUDENT_COLUMNS = { name: asText('st.name'), role: asText('st.role::text') } satisfies Record<string, Column>;
const RESULT_COLUMNS = {
  questionType: asText('r.question_type'),
  metadata: { sql: 'r.metadata::text', decode: (text): unknown => JSON.parse(text!) },
} satisfies Record<string, Column>;
const CONCEPT_COLUMNS = { uid: asText('co.uid'), name: asText('co.name') } satisfies Record<string, Column>;
type SessionField = keyof typeof SESSION_COLUMNS;
type StudentField = keyof typeof STUDENT_COLUMNS;
type ResultField = keyof typeof RESULT_COLUMNS;
type ConceptField = keyof typeof CONCEPT_COLUMNS;
const SESSION_FIELDS = Object.keys(SESSION_COLUMNS) as SessionField[];
const STUDENT_FIELDS = Object.keys(STUDENT_COLUMNS) as StudentField[];
const RESULT_FIELDS = Object.keys(RESULT_COLUMNS) as ResultField[];
const CONCEPT_FIELDS = Object.keys(CONCEPT_COLUMNS) as ConceptField[];
/** A student's fields answered from these columns alone; any other (id, milestones, objectives) needs its id. */
const STUDENT_FIELDS_WITHOUT_ID = new Set<string>([...STUDENT_FIELDS, '__typename']);

/** What the operation selects beyond the classroom activity itself (readPlanOf decides). */
export type ReadPlan = {
  fields: readonly ClassroomActivityField[];
  classroom: boolean;
  owner: boolean;
  unit: boolean;
  /** null when no session is selected; `student`, `conceptResults` and `concept` null when not selected. */
  sessions: {
    fields: readonly SessionField[];
    student: { id: boolean; fields: readonly StudentField[] } | null;
    conceptResults: { fields: readonly ResultField[]; concept: readonly ConceptField[] | null } | null;
  } | null;
};

export type ClassroomActivityRead = {
  /**
   * Its id, classroom id and the columns of the fields the operation selects, no other: it answers this
   * operation's fields (the Query.classroomActivity object is no loader's).
   */
  classroomActivity: ClassroomActivity;
  /** undefined when the plan did not ask for them. */
  classroom: Classroom | undefined;
  owner: User | null | undefined;
  unit: Unit | null | undefined;
  viewerTeaches: boolean;
  /**
   * Only when the plan asked for them and the viewer teaches the classroom (nothing is read for others).
   * Each session and student holds only the keys the plan named: they answer this operation's own fields,
   * never a loader another field may share.
   */
  sessions: SessionWithStudent[] | null;
  /** Each session's concept results (with only the keys the plan named), by session, when the plan asked for them. */
  conceptResults: Map<SessionWithStudent, ConceptResultWithConcept[]> | null;
};

/** The fields to read, from the operation's selection on the classroom activity (src/graphql/look-ahead.ts). */
export function readPlanOf(selected: Selection, fragments: GraphQLResolveInfo['fragments']): ReadPlan {
  const studentNames = selected.has('studentNames');
  const sessionNodes = selected.get('sessions') ?? [];
  let sessions: ReadPlan['sessions'] = null;
  if (sessionNodes.length > 0 || studentNames) {
    const onSession = selectionOf(sessionNodes, fragments);
    const studentNodes = onSession.get('student') ?? [];
    const onStudent = selectionOf(studentNodes, fragments);
    const resultNodes = onSession.get('conceptResults') ?? [];
    const onResult = selectionOf(resultNodes, fragments);
    const conceptNodes = onResult.get('concept') ?? [];
    const onConcept = selectionOf(conceptNodes, fragments);
    sessions = {
      fields: SESSION_FIELDS.filter((field) => onSession.has(field) || (studentNames && field === 'uid')),
      student:
        studentNodes.length > 0 || studentNames
          ? {
              id: [...onStudent.keys()].some((field) => !STUDENT_FIELDS_WITHOUT_ID.has(field)),
              fields: STUDENT_FIELDS.filter((field) => onStudent.has(field) || (studentNames && field === 'name')),
            }
          : null,
      conceptResults:
        resultNodes.length > 0
          ? {
              fields: RESULT_FIELDS.filter((field) => onResult.has(field)),
              concept: conceptNodes.length > 0 ? CONCEPT_FIELDS.filter((field) => onConcept.has(field)) : null,
            }
          : null,
    };
  }
  const classroomNodes = selected.get('classroom') ?? [];
  const onClassroom = selectionOf(classroomNodes, fragments);
  return {
    fields: CLASSROOM_ACTIVITY_FIELDS.filter((field) => selected.has(field)),
    classroom: classroomNodes.length > 0,
    owner: onClassroom.has('teacher'),
    unit: selected.has('unit'),
    sessions,
  };
}

/** One element of a row's text array, and its key in the object built from it (or in the object nested in that one). */
type Element = { column: Column; key: string; nested: boolean };

/** The elements of a session's array, in order: its id when its concept results are read (they are matched by it). */
function sessionElements({ fields, student, conceptResults }: NonNullable<ReadPlan['sessions']>): { withId: boolean; elements: Element[] } {
  const elements: Element[] = fields.map((field) => ({ column: SESSION_COLUMNS[field], key: field, nested: false }));
  if (student?.id) elements.push({ column: { sql: 'st.id::text', decode: Number }, key: 'id', nested: true });
  for (const field of student?.fields ?? []) elements.push({ column: STUDENT_COLUMNS[field], key: field, nested: true });
  // An array of arrays needs at least one element in each.
  return { withId: conceptResults !== null || elements.length === 0, elements };
}

function resultElements({ fields, concept }: NonNullable<NonNullable<ReadPlan['sessions']>['conceptResults']>): Element[] {
  const elements: Element[] = fields.map((field) => ({ column: RESULT_COLUMNS[field], key: field, nested: false }));
  for (const field of concept ?? []) elements.push({ column: CONCEPT_COLUMNS[field], key: field, nested: true });
  return elements;
}

// The classroom activity's columns by the GraphQL field that reads each (createdAt, updatedAt and visible
// are no field's). Its id and classroom id are always read: the statement and the loaders key on them.
const CLASSROOM_ACTIVITY_COLUMNS = {
  activity: 'ca.activity_id AS "activityId"',
  unit: 'ca.unit_id AS "unitId"',
  dueDate: 'ca.due_date AS "dueDate"',
  assignedStudentIds: 'ca.assigned_student_ids AS "assignedStudentIds"',
  assignOnJoin: 'ca.assign_on_join AS "assignOnJoin"',
  locked: 'ca.locked',
  pinned: 'ca.pinned',
  completed: 'ca.completed',
  editionId: 'ca.edition_id AS "editionId"',
} as const;
type ClassroomActivityField = keyof typeof CLASSROOM_ACTIVITY_COLUMNS;
const CLASSROOM_ACTIVITY_FIELDS = Object.keys(CLASSROOM_ACTIVITY_COLUMNS) as ClassroomActivityField[];

type Statement = {
  name: string | undefined;
  text: string;
  session: { withId: boolean; elements: Element[] } | null;
  result: Element[] | null;
};

/** A plan's statement name: one flag per allowed field, so that equal plans, and only they, share it. */
function nameOf(plan: ReadPlan): string {
  const { sessions } = plan;
  const flags = [
    ...CLASSROOM_ACTIVITY_FIELDS.map((field) => plan.fields.includes(field)),
    plan.classroom,
    plan.owner,
    plan.unit,
    sessions !== null,
    ...SESSION_FIELDS.map((field) => sessions?.fields.includes(field) ?? false),
    sessions?.student != null,
    sessions?.student?.id ?? false,
    ...STUDENT_FIELDS.map((field) => sessions?.student?.fields.includes(field) ?? false),
    sessions?.conceptResults != null,
    ...RESULT_FIELDS.map((field) => sessions?.conceptResults?.fields.includes(field) ?? false),
    sessions?.conceptResults?.concept != null,
    ...CONCEPT_FIELDS.map((field) => sessions?.conceptResults?.concept?.includes(field) ?? false),
  ];
  return `classroom_activity_read_${flags.map(Number).join('')}`;
}

/** The statement for a plan, prepared under its name (nameOf). */
function statementFor(plan: ReadPlan, name: string): Statement {
  const { sessions } = plan;
  const session = sessions && sessionElements(sessions);
  const result = sessions?.conceptResults ? resultElements(sessions.conceptResults) : null;
  const columns = [
    'ca.id, ca.classroom_id AS "classroomId"',
    ...plan.fields.map((field) => CLASSROOM_ACTIVITY_COLUMNS[field]),
    'vt.id IS NOT NULL AS "viewerTeaches"',
  ];
  const joins: string[] = [];
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
    // join read every concept result: 10 times the cost).
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
    WHERE ca.id = $1 AND ca.visible`;
  return { name, text, session, result };
}
/**
 * Each plan's statement, named so that every pooled connection keeps it prepared. Selections can combine
 * into many plans, and each named one costs memory here and on every connection: past this many, a new
 * plan's statement is built for its request and sent unnamed.
 */
const MAX_NAMED_STATEMENTS = 200;
const statements = new Map<string, Statement>();
const statementOf = (plan: ReadPlan): Statement => {
  const name = nameOf(plan);
  const known = statements.get(name);
  if (known) return known;
  const statement = statementFor(plan, name);
  if (statements.size >= MAX_NAMED_STATEMENTS) return { ...statement, name: undefined };
  statements.set(name, statement);
  return statement;
};

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
  sessions?: (string | null)[][] | null;
  conceptResults?: (string | null)[][] | null;
} & Record<string, unknown>;

/** A visible classroom activity as `viewerId` reads it, or null when unknown or hidden. */
export async function readClassroomActivity(
  read: SqlRead,
  id: string,
  viewerId: number | null,
  plan: ReadPlan,
): Promise<ClassroomActivityRead | null> {
  const numericId = parseNumericId(id);
  if (numericId === null) return null;
  const statement = statementOf(plan);
  const [row] = await read<Row>(statement.text, [numericId, viewerId], statement.name);
  if (!row) return null;
  const { viewerTeaches, sessions: sessionRows, conceptResults: resultRows, ...columns } = row;
  // Only the columns the plan named (see ClassroomActivityRead.classroomActivity).
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

  let sessions: SessionWithStudent[] | null = null;
  let conceptResults: Map<SessionWithStudent, ConceptResultWithConcept[]> | null = null;
  if (statement.session && sessionRows) {
    const { withId, elements } = statement.session;
    const bySessionId = statement.result ? new Map<string, ConceptResultWithConcept[]>() : null;
    sessions = [];
    if (bySessionId) conceptResults = new Map();
    for (const values of sessionRows) {
      // Only the selected keys (see ClassroomActivityRead.sessions): this operation's resolvers read no other.
      const session = decode(values, withId ? 1 : 0, elements, 'student') as unknown as SessionWithStudent;
      sessions.push(session);
      if (bySessionId) {
        const results: ConceptResultWithConcept[] = [];
        bySessionId.set(values[0]!, results);
        conceptResults!.set(session, results);
      }
    }
    if (bySessionId && statement.result)
      for (const values of resultRows ?? [])
        bySessionId.get(values[0]!)?.push(decode(values, 1, statement.result, 'concept') as unknown as ConceptResultWithConcept);
  }
  return { classroomActivity, classroom, owner, unit, viewerTeaches, sessions, conceptResults };
}
