import type { SqlRead } from '../../db/client.ts';
import type { Classroom, ClassroomActivity, Unit, User } from '../../generated/prisma/client.ts';
import type { ConceptResultWithConcept, SessionWithStudent } from '../../graphql/mappers.ts';
import { parseNumericId } from '../../graphql/validation.ts';

// The classroom activity as a teacher reads it (Query.classroomActivity, REST student_names and
// teacher_and_classroom_name): one driver-level statement (see SqlRead) that brings, with the classroom
// activity, its classroom, the classroom's owner, its unit, whether the viewer teaches the classroom and,
// when the operation selects them, its visible sessions with their students and their concept results,
// built as JSON by PostgreSQL. The resolver hands them to the loaders the nested fields read, so a whole
// lesson screen costs this one statement whatever the number of sessions (README, Performance).

/** What the operation selects beyond the classroom activity itself (src/graphql/look-ahead.ts decides). */
export type ReadPlan = { sessions: boolean; conceptResults: boolean };

export type ClassroomActivityRead = {
  classroomActivity: ClassroomActivity;
  classroom: Classroom;
  owner: User | null;
  unit: Unit | null;
  viewerTeaches: boolean;
  /** Only when the plan asked for them and the viewer teaches the classroom (nothing is read for others). */
  sessions: SessionWithStudent[] | null;
  /** Each session's concept results, by session id, when the plan asked for them. */
  conceptResults: Map<number, ConceptResultWithConcept[]> | null;
};

type JsonUser = Omit<User, 'createdAt'> & { createdAt: string };
type JsonSession = Omit<SessionWithStudent, 'completedAt' | 'student'> & {
  completedAt: string | null;
  student: JsonUser;
  conceptResults?: ConceptResultWithConcept[];
};
type Row = ClassroomActivity & {
  classroom: Classroom;
  owner: JsonUser | null;
  unit: Unit | null;
  viewerTeaches: boolean;
  sessions: JsonSession[] | null;
};

const USER_JSON = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'email', ${alias}.email, 'role', ${alias}.role, 'createdAt', ${alias}.created_at)`;

const CONCEPT_RESULTS_JSON = `'conceptResults', (
  SELECT coalesce(json_agg(json_build_object('id', r.id, 'questionType', r.question_type, 'metadata', r.metadata,
           'concept', json_build_object('id', co.id, 'uid', co.uid, 'name', co.name)) ORDER BY r.id), '[]')
  FROM concept_results r JOIN concepts co ON co.id = r.concept_id
  WHERE r.activity_session_id = s.id)`;

const sessionsJson = (conceptResults: boolean) => `(
  SELECT coalesce(json_agg(json_build_object('id', s.id, 'uid', s.uid, 'state', s.state, 'percentage', s.percentage,
           'completedAt', s.completed_at, 'isFinalScore', s.is_final_score, 'student', ${USER_JSON('st')}
           ${conceptResults ? `, ${CONCEPT_RESULTS_JSON}` : ''}) ORDER BY s.id), '[]')
  FROM activity_sessions s JOIN users st ON st.id = s.user_id
  WHERE s.classroom_activity_id = ca.id AND s.visible)`;

/** The statement for a plan: three texts in all, each prepared under its own name. */
function statementFor(plan: ReadPlan): { name: string; text: string } {
  const variant = !plan.sessions ? 'bare' : plan.conceptResults ? 'sessions_results' : 'sessions';
  const text = `
    SELECT ca.id, ca.classroom_id AS "classroomId", ca.activity_id AS "activityId", ca.unit_id AS "unitId",
           ca.due_date AS "dueDate", ca.assigned_student_ids AS "assignedStudentIds", ca.assign_on_join AS "assignOnJoin",
           ca.visible, ca.locked, ca.pinned, ca.completed, ca.edition_id AS "editionId",
           ca.created_at AS "createdAt", ca.updated_at AS "updatedAt",
           json_build_object('id', c.id, 'name', c.name, 'visible', c.visible) AS classroom,
           (SELECT ${USER_JSON('o')} FROM classrooms_teachers ot JOIN users o ON o.id = ot.user_id
            WHERE ot.classroom_id = ca.classroom_id AND ot.role = 'owner' ORDER BY ot.id LIMIT 1) AS owner,
           (SELECT json_build_object('id', un.id, 'name', un.name) FROM units un WHERE un.id = ca.unit_id) AS unit,
           m.teaches AS "viewerTeaches",
           ${plan.sessions ? `CASE WHEN m.teaches THEN ${sessionsJson(plan.conceptResults)} END` : 'NULL::json'} AS sessions
    FROM classroom_activities ca
    JOIN classrooms c ON c.id = ca.classroom_id
    CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM classrooms_teachers vt WHERE vt.classroom_id = ca.classroom_id AND vt.user_id = $2) AS teaches) m
    WHERE ca.id = $1 AND ca.visible`;
  return { name: `classroom_activity_read_${variant}`, text };
}
const statements = new Map<string, { name: string; text: string }>();
const statementOf = (plan: ReadPlan) => {
  const key = `${plan.sessions}:${plan.conceptResults}`;
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
  let conceptResults: Map<number, ConceptResultWithConcept[]> | null = null;
  if (jsonSessions) {
    sessions = [];
    if (plan.conceptResults) conceptResults = new Map();
    for (const { student, completedAt, conceptResults: results, ...session } of jsonSessions) {
      sessions.push({ ...session, completedAt: completedAt === null ? null : new Date(completedAt), student: userFromJson(student) });
      if (results) conceptResults?.set(session.id, results);
    }
  }
  return { classroomActivity, classroom, owner: owner && userFromJson(owner), unit, viewerTeaches, sessions, conceptResults };
}
