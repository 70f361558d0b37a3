import type { GraphQLResolveInfo } from 'graphql';
import type { SqlRead } from '../../db/client.ts';
import type { Classroom, ClassroomActivity, Unit, User } from '../../generated/prisma/client.ts';
import { selectionOf, type Selection } from '../../graphql/look-ahead.ts';
import type { ConceptResultWithConcept, SessionWithStudent } from '../../graphql/mappers.ts';
import { parseNumericId } from '../../graphql/validation.ts';

// The classroom activity as a teacher reads it (Query.classroomActivity, REST student_names and
// teacher_and_classroom_name): one driver-level statement (see SqlRead) that brings, with the classroom
// activity, its classroom, whether the viewer teaches the classroom and, when the operation selects them,
// the classroom's owner, its unit, and its visible sessions with their students and their concept results,
// built as JSON by PostgreSQL. The JSON holds only the keys the operation selects (readPlanOf), so that
// PostgreSQL reads and builds no more than it is asked for (README, Performance).

// The fields of ActivitySession, User, ConceptResult and Concept the statement can build, and the column
// each reads: a fixed allow-list, so no name that comes with a request ever reaches the SQL text. A
// session's and a student's ids are always read (User's own fields and the loaders key on them).
const SESSION_COLUMNS = {
  uid: 's.uid',
  state: 's.state',
  percentage: 's.percentage',
  completedAt: 's.completed_at',
  isFinalScore: 's.is_final_score',
} as const;
const STUDENT_COLUMNS = { name: 'st.name', role: 'st.role' } as const;
const RESULT_COLUMNS = { questionType: 'r.question_type', metadata: 'r.metadata' } as const;
const CONCEPT_COLUMNS = { uid: 'co.uid', name: 'co.name' } as const;
type SessionField = keyof typeof SESSION_COLUMNS;
type StudentField = keyof typeof STUDENT_COLUMNS;
type ResultField = keyof typeof RESULT_COLUMNS;
type ConceptField = keyof typeof CONCEPT_COLUMNS;
const SESSION_FIELDS = Object.keys(SESSION_COLUMNS) as SessionField[];
const STUDENT_FIELDS = Object.keys(STUDENT_COLUMNS) as StudentField[];
const RESULT_FIELDS = Object.keys(RESULT_COLUMNS) as ResultField[];
const CONCEPT_FIELDS = Object.keys(CONCEPT_COLUMNS) as ConceptField[];

/** What the operation selects beyond the classroom activity and its classroom (readPlanOf decides). */
export type ReadPlan = {
  owner: boolean;
  unit: boolean;
  /** null when no session is selected; `student`, `conceptResults` and `concept` null when not selected. */
  sessions: {
    fields: readonly SessionField[];
    student: readonly StudentField[] | null;
    conceptResults: { fields: readonly ResultField[]; concept: readonly ConceptField[] | null } | null;
  } | null;
};

export type ClassroomActivityRead = {
  classroomActivity: ClassroomActivity;
  classroom: Classroom;
  /** undefined when the plan did not ask for it. */
  owner: User | null | undefined;
  unit: Unit | null;
  viewerTeaches: boolean;
  /**
   * Only when the plan asked for them and the viewer teaches the classroom (nothing is read for others).
   * Each session and student holds only the keys the plan named (and their ids): they answer this
   * operation's own fields, never a loader another field may share.
   */
  sessions: SessionWithStudent[] | null;
  /** Each session's concept results (with only the keys the plan named), by session, when the plan asked for them. */
  conceptResults: Map<SessionWithStudent, ConceptResultWithConcept[]> | null;
};

type JsonUser = Omit<User, 'createdAt'> & { createdAt: string };
type JsonSession = { id: number; completedAt?: string | null; student?: Pick<User, 'id'>; conceptResults?: ConceptResultWithConcept[] };
type Row = ClassroomActivity & {
  classroom: Classroom;
  owner: JsonUser | null;
  unit: Unit | null;
  viewerTeaches: boolean;
  sessions: JsonSession[] | null;
};

/** The fields to build, from the operation's selection on the classroom activity (src/graphql/look-ahead.ts). */
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
          ? STUDENT_FIELDS.filter((field) => onStudent.has(field) || (studentNames && field === 'name'))
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
  const onClassroom = selectionOf(selected.get('classroom') ?? [], fragments);
  return { owner: onClassroom.has('teacher'), unit: selected.has('unit'), sessions };
}

const USER_JSON = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'email', ${alias}.email, 'role', ${alias}.role, 'createdAt', ${alias}.created_at)`;

const keyed = <Field extends string>(fields: readonly Field[], columns: Record<Field, string>) =>
  fields.map((field) => `, '${field}', ${columns[field]}`).join('');

function conceptResultsJson({ fields, concept }: NonNullable<NonNullable<ReadPlan['sessions']>['conceptResults']>): string {
  const conceptJson = concept ? `, 'concept', json_build_object(${keyed(concept, CONCEPT_COLUMNS).slice(2)})` : '';
  return `(
  SELECT coalesce(json_agg(json_build_object(${`${keyed(fields, RESULT_COLUMNS)}${conceptJson}`.slice(2)}) ORDER BY r.id), '[]')
  FROM concept_results r ${concept ? 'JOIN concepts co ON co.id = r.concept_id' : ''}
  WHERE r.activity_session_id = s.id)`;
}

function sessionsJson({ fields, student, conceptResults }: NonNullable<ReadPlan['sessions']>): string {
  const studentJson = student ? `, 'student', json_build_object('id', st.id${keyed(student, STUDENT_COLUMNS)})` : '';
  return `(
  SELECT coalesce(json_agg(json_build_object('id', s.id${keyed(fields, SESSION_COLUMNS)}${studentJson}
           ${conceptResults ? `, 'conceptResults', ${conceptResultsJson(conceptResults)}` : ''}) ORDER BY s.id), '[]')
  FROM activity_sessions s ${student ? 'JOIN users st ON st.id = s.user_id' : ''}
  WHERE s.classroom_activity_id = ca.id AND s.visible)`;
}

/** The statement for a plan, prepared under a name that spells the plan (a bounded set: one flag per allowed field). */
function statementFor(plan: ReadPlan): { name: string; text: string } {
  const { sessions } = plan;
  const flags = [
    plan.owner,
    plan.unit,
    sessions !== null,
    ...SESSION_FIELDS.map((field) => sessions?.fields.includes(field) ?? false),
    sessions?.student != null,
    ...STUDENT_FIELDS.map((field) => sessions?.student?.includes(field) ?? false),
    sessions?.conceptResults != null,
    ...RESULT_FIELDS.map((field) => sessions?.conceptResults?.fields.includes(field) ?? false),
    sessions?.conceptResults?.concept != null,
    ...CONCEPT_FIELDS.map((field) => sessions?.conceptResults?.concept?.includes(field) ?? false),
  ];
  const text = `
    SELECT ca.id, ca.classroom_id AS "classroomId", ca.activity_id AS "activityId", ca.unit_id AS "unitId",
           ca.due_date AS "dueDate", ca.assigned_student_ids AS "assignedStudentIds", ca.assign_on_join AS "assignOnJoin",
           ca.visible, ca.locked, ca.pinned, ca.completed, ca.edition_id AS "editionId",
           ca.created_at AS "createdAt", ca.updated_at AS "updatedAt",
           json_build_object('id', c.id, 'name', c.name, 'visible', c.visible) AS classroom,
           ${
             plan.owner
               ? `(SELECT ${USER_JSON('o')} FROM classrooms_teachers ot JOIN users o ON o.id = ot.user_id
                   WHERE ot.classroom_id = ca.classroom_id AND ot.role = 'owner' ORDER BY ot.id LIMIT 1)`
               : 'NULL::json'
           } AS owner,
           ${plan.unit ? "(SELECT json_build_object('id', un.id, 'name', un.name) FROM units un WHERE un.id = ca.unit_id)" : 'NULL::json'} AS unit,
           m.teaches AS "viewerTeaches",
           ${sessions ? `CASE WHEN m.teaches THEN ${sessionsJson(sessions)} END` : 'NULL::json'} AS sessions
    FROM classroom_activities ca
    JOIN classrooms c ON c.id = ca.classroom_id
    CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM classrooms_teachers vt WHERE vt.classroom_id = ca.classroom_id AND vt.user_id = $2) AS teaches) m
    WHERE ca.id = $1 AND ca.visible`;
  return { name: `classroom_activity_read_${flags.map(Number).join('')}`, text };
}
const statements = new Map<string, { name: string; text: string }>();
const statementOf = (plan: ReadPlan) => {
  const key = JSON.stringify(plan);
  let statement = statements.get(key);
  if (!statement) statements.set(key, (statement = statementFor(plan)));
  return statement;
};

const userFromJson = (user: JsonUser): User => ({ ...user, createdAt: new Date(user.createdAt) });

/** A visible classroom activity as `viewerId` reads it, or null when unknown or hidden. */
export async function readClassroomActivity(
  read: SqlRead,
  id: string,
  viewerId: number | null,
  plan: ReadPlan,
): Promise<ClassroomActivityRead | null> {
  const numericId = parseNumericId(id);
  if (numericId === null) return null;
  const { name, text } = statementOf(plan);
  const [row] = await read<Row>(text, [numericId, viewerId], name);
  if (!row) return null;
  const { classroom, owner, unit, viewerTeaches, sessions: jsonSessions, ...classroomActivity } = row;
  let sessions: SessionWithStudent[] | null = null;
  let conceptResults: Map<SessionWithStudent, ConceptResultWithConcept[]> | null = null;
  if (jsonSessions) {
    sessions = [];
    if (plan.sessions?.conceptResults) conceptResults = new Map();
    for (const { completedAt, conceptResults: results, ...session } of jsonSessions) {
      const built = completedAt === undefined ? session : { ...session, completedAt: completedAt === null ? null : new Date(completedAt) };
      // Only the selected keys (see ClassroomActivityRead.sessions): this operation's resolvers read no other.
      sessions.push(built as SessionWithStudent);
      if (results) conceptResults?.set(built as SessionWithStudent, results);
    }
  }
  return {
    classroomActivity,
    classroom,
    owner: plan.owner ? owner && userFromJson(owner) : undefined,
    unit,
    viewerTeaches,
    sessions,
    conceptResults,
  };
}
