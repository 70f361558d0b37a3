import type { GraphQLResolveInfo } from 'graphql';
import { selectionOf, type Selection } from '../look-ahead.ts';

// What a view of a classroom activity brings (view-statement.ts): the columns each GraphQL field reads, from a fixed
// allow-list (no name that comes with a request reaches the SQL text), and the plan of one operation's
// selection, made once per operation (src/modules/look-ahead.ts, planOncePerOperation).

/** A value as the statement sends it (text, or NULL) and how it is read back. */
export type Column = { sql: string; decode: (text: string | null) => unknown };
const asText = (sql: string): Column => ({ sql, decode: (text) => text });
/** Epoch milliseconds: every timestamp column is timestamptz(3), so the value is exact. */
const asDate = (sql: string): Column => ({
  sql: `(extract(epoch FROM ${sql}) * 1000)::int8::text`,
  decode: (text) => (text === null ? null : new Date(Number(text))),
});

export const SESSION_COLUMNS = {
  uid: asText('s.uid'),
  state: asText('s.state::text'),
  percentage: { sql: 's.percentage::text', decode: (text) => (text === null ? null : Number(text)) },
  completedAt: asDate('s.completed_at'),
  isFinalScore: { sql: 's.is_final_score::text', decode: (text) => text === 'true' },
} satisfies Record<string, Column>;
export const STUDENT_COLUMNS = { name: asText('st.name'), role: asText('st.role::text') } satisfies Record<string, Column>;
export const RESULT_COLUMNS = {
  questionType: asText('r.question_type'),
  metadata: { sql: 'r.metadata::text', decode: (text): unknown => JSON.parse(text!) },
} satisfies Record<string, Column>;
export const CONCEPT_COLUMNS = { uid: asText('co.uid'), name: asText('co.name') } satisfies Record<string, Column>;

// The classroom activity's columns by the GraphQL field that reads each (createdAt, updatedAt and visible
// are no field's). Its id and classroom id are always read: the statement and the loaders key on them.
export const CLASSROOM_ACTIVITY_COLUMNS = {
  activity: 'ca.activity_id AS "activityId"',
  unit: 'ca.unit_id AS "unitId"',
  dueDate: 'ca.due_date AS "dueDate"',
  assignedStudentIds: 'ca.assigned_student_ids AS "assignedStudentIds"',
  assignOnJoin: 'ca.assign_on_join AS "assignOnJoin"',
  locked: 'ca.locked',
  pinned: 'ca.pinned',
  completed: 'ca.completed',
  editionId: 'ca.edition_id AS "editionId"',
  lessonEventCursor: 'ca.lesson_event_position AS "lessonEventPosition"',
} as const;

type ClassroomActivityField = keyof typeof CLASSROOM_ACTIVITY_COLUMNS;
type SessionField = keyof typeof SESSION_COLUMNS;
type StudentField = keyof typeof STUDENT_COLUMNS;
type ResultField = keyof typeof RESULT_COLUMNS;
type ConceptField = keyof typeof CONCEPT_COLUMNS;
export const CLASSROOM_ACTIVITY_FIELDS = Object.keys(CLASSROOM_ACTIVITY_COLUMNS) as ClassroomActivityField[];
export const SESSION_FIELDS = Object.keys(SESSION_COLUMNS) as SessionField[];
export const STUDENT_FIELDS = Object.keys(STUDENT_COLUMNS) as StudentField[];
export const RESULT_FIELDS = Object.keys(RESULT_COLUMNS) as ResultField[];
export const CONCEPT_FIELDS = Object.keys(CONCEPT_COLUMNS) as ConceptField[];
/** A student's fields answered from these columns alone; any other (id, milestones, objectives) needs its id. */
const STUDENT_FIELDS_WITHOUT_ID = new Set<string>([...STUDENT_FIELDS, '__typename']);

/** What a view brings beyond the classroom activity's id, classroom id and whether the viewer teaches its classroom. */
export type ViewPlan = {
  fields: readonly ClassroomActivityField[];
  classroom: boolean;
  owner: boolean;
  unit: boolean;
  /** Whether the viewer may follow the lesson: a teacher, or a student with a visible session or assigned to it. */
  follower: boolean;
  /** null when no session is selected; `student`, `conceptResults` and `concept` null when not selected. */
  sessions: {
    fields: readonly SessionField[];
    student: { id: boolean; fields: readonly StudentField[] } | null;
    conceptResults: { fields: readonly ResultField[]; concept: readonly ConceptField[] | null } | null;
  } | null;
};

/** The plan of an operation's selection on the classroom activity (src/modules/look-ahead.ts). */
export function viewPlanOf(selected: Selection, fragments: GraphQLResolveInfo['fragments']): ViewPlan {
  const studentNames = selected.has('studentNames');
  const sessionNodes = selected.get('sessions') ?? [];
  let sessions: ViewPlan['sessions'] = null;
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
    follower: false,
    sessions,
  };
}

/** A plan's statement name: one flag per allowed field, so that equal plans, and only they, share it. */
export function statementNameOf(plan: ViewPlan): string {
  const { sessions } = plan;
  const flags = [
    ...CLASSROOM_ACTIVITY_FIELDS.map((field) => plan.fields.includes(field)),
    plan.classroom,
    plan.owner,
    plan.unit,
    plan.follower,
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
