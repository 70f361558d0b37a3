import type { Tx } from '../../db/transaction.ts';
import type { ClassroomActivity } from '../../generated/prisma/client.ts';
import { addFieldError, badUserInput, notFound, quote, type FieldErrors } from '../../core/errors.ts';
import { isStorableText } from '../../core/json.ts';
import { COMPLETE_CUSTOMIZED_LESSON, grantMilestone } from '../milestones/grants.ts';
import { conceptResultFingerprint } from './concept-results.ts';
import { notifyLessonEvent } from './lesson-events.ts';
import type { ConceptResultCommand, FinishLessonCommand, UidReference } from './finish-lesson.input.ts';
import type { FinishLessonPayloadMapper } from './mappers.ts';

// The one place the six finish_lesson rules live (docs/contract.md, finish_lesson), inside the caller's
// transaction, in the same number of statements whatever the number of sessions or concept results: every
// write is one set-based statement (arrays through unnest, NOT EXISTS for the absent students).

/**
 * The classroom activity as rule 2 leaves it, with what the later rules need from its activity, and
 * whether rule 2 found it already finished (locked, unpinned, completed, same edition id).
 */
type FinishedClassroomActivity = ClassroomActivity & { followUpActivityId: number | null; wasFinished: boolean };

/** Which lesson ends, who ends it, what they sent, and where follow-up links point. */
export type FinishLessonParams = {
  classroomActivityId: number;
  teacherId: number;
  command: FinishLessonCommand;
  appUrl: string;
};

export async function finishInTransaction(
  tx: Tx,
  { classroomActivityId, teacherId, command, appUrl }: FinishLessonParams,
): Promise<FinishLessonPayloadMapper> {
  // 2. The classroom activity is locked, unpinned and completed; a given edition id is stored. Done first:
  // the row lock (taken by the subquery's FOR UPDATE, which also reads the row as it was) serialises racing
  // calls on one classroom activity, so the second sees the first's result (and a failure below rolls this
  // back with the rest).
  const [finished] = await tx.$queryRaw<FinishedClassroomActivity[]>`
    UPDATE classroom_activities ca
    SET locked = true, pinned = false, completed = true, edition_id = COALESCE(${command.editionId ?? null}::text, ca.edition_id), updated_at = now(),
        lesson_event_position = ca.lesson_event_position + CASE WHEN before.locked AND NOT before.pinned AND before.completed
          AND before.edition_id IS NOT DISTINCT FROM COALESCE(${command.editionId ?? null}::text, ca.edition_id) THEN 0 ELSE 1 END
    FROM activities a,
         (SELECT id, locked, pinned, completed, edition_id FROM classroom_activities WHERE id = ${classroomActivityId} FOR UPDATE) before
    WHERE ca.id = ${classroomActivityId} AND ca.visible AND a.id = ca.activity_id AND before.id = ca.id
    RETURNING before.locked AND NOT before.pinned AND before.completed AND before.edition_id IS NOT DISTINCT FROM ca.edition_id AS "wasFinished", ca.id, ca.classroom_id AS "classroomId", ca.activity_id AS "activityId", ca.unit_id AS "unitId", ca.due_date AS "dueDate",
              ca.assigned_student_ids AS "assignedStudentIds", ca.assign_on_join AS "assignOnJoin", ca.visible, ca.locked, ca.pinned,
              ca.completed, ca.edition_id AS "editionId", ca.lesson_event_position AS "lessonEventPosition", ca.created_at AS "createdAt", ca.updated_at AS "updatedAt",
              a.follow_up_activity_id AS "followUpActivityId"`;
  if (!finished) throw notFound();
  const { followUpActivityId, wasFinished, ...classroomActivity } = finished;
  const editionId = classroomActivity.editionId;

  // Checked under the lock, so a session removed by a call that ran just before counts as unknown.
  const rows = await resolveReferences(tx, classroomActivityId, command.conceptResults);

  // 1. Every session (hidden ones too) is finished; completedAt is kept when already set.
  await tx.$executeRaw`
    UPDATE activity_sessions
    SET state = 'finished', percentage = 1, completed_at = COALESCE(completed_at, now()), is_final_score = true,
        updated_at = now(),
        data = CASE WHEN ${editionId}::text IS NULL THEN data ELSE data || jsonb_build_object('edition_id', ${editionId}::text) END
    WHERE classroom_activity_id = ${classroomActivityId}`;

  // 3. Each concept result is saved to its session; a result already saved (a retry) is not saved twice.
  let saved = 0;
  if (rows.length > 0) {
    saved = await tx.$executeRaw`
      INSERT INTO concept_results (activity_session_id, concept_id, question_type, metadata, fingerprint)
      SELECT session_id, concept_id, question_type, metadata::jsonb, fingerprint
      FROM unnest(${rows.map((row) => row.sessionId)}::int[], ${rows.map((row) => row.conceptId)}::int[],
                  ${rows.map((row) => row.questionType)}::text[], ${rows.map((row) => row.metadata)}::text[],
                  ${rows.map((row) => row.fingerprint)}::text[])
           AS given(session_id, concept_id, question_type, metadata, fingerprint)
      ON CONFLICT (activity_session_id, fingerprint) DO NOTHING`;
  }

  // 4. Visible sessions left with no concept result belonged to absent students.
  const dropped = await tx.$executeRaw`
    DELETE FROM activity_sessions s
    WHERE s.classroom_activity_id = ${classroomActivityId} AND s.visible
      AND NOT EXISTS (SELECT 1 FROM concept_results r WHERE r.activity_session_id = s.id)`;

  // 5. A customized edition earns the teacher the completion milestone, once.
  if (editionId) await grantMilestone(tx, teacherId, COMPLETE_CUSTOMIZED_LESSON);

  // 6. The follow-up activity, when asked for and there is one.
  const followUp = command.followUp && followUpActivityId !== null ? await assignFollowUp(tx, classroomActivity, followUpActivityId) : null;
  const followUpClassroomActivity = followUp?.classroomActivity ?? null;

  const followUpUrl = followUpClassroomActivity
    ? `${appUrl}/teachers/classroom_activities/${followUpClassroomActivity.id}/activity_from_classroom_activity`
    : appUrl;
  // A retry that changed nothing (already finished, no result saved, no session dropped, the follow-up
  // neither assigned nor unlocked now) sends no second event; any change a student sees sends one (docs/contract.md, finish_lesson).
  // Its position was taken by the update above unless it was finished already (see notifyLessonEvent).
  if (!wasFinished) await notifyLessonEvent(tx, 'FINISHED', classroomActivity, followUpUrl);
  else if (saved > 0 || dropped > 0 || followUp?.changed)
    classroomActivity.lessonEventPosition = await notifyLessonEvent(tx, 'FINISHED', classroomActivity, followUpUrl, { moved: false });

  return { followUpUrl, classroomActivity, followUpClassroomActivity };
}

type ConceptResultRow = { sessionId: number; conceptId: number; questionType: string; metadata: string; fingerprint: string };

/**
 * Looks the uids up: `errors` names (camelCase paths) every uid that is not a visible session of this
 * classroom activity or not a known concept. One statement, whatever the number of references.
 */
export async function lookUpReferences(tx: Tx, classroomActivityId: number, references: UidReference[]) {
  // A uid PostgreSQL cannot hold (a NUL character) names no concept: it is not sent to the database.
  const conceptUids = [
    ...new Set(
      references.flatMap((reference) =>
        reference.conceptUid === undefined || !isStorableText(reference.conceptUid) ? [] : [reference.conceptUid],
      ),
    ),
  ];
  const found = await tx.$queryRaw<{ kind: 'session' | 'concept'; id: number; uid: string }[]>`
    SELECT 'session' AS kind, id, uid FROM activity_sessions WHERE classroom_activity_id = ${classroomActivityId} AND visible
    UNION ALL
    SELECT 'concept' AS kind, id, uid FROM concepts WHERE uid = ANY(${conceptUids}::text[])`;
  const sessionIdByUid = new Map(found.filter((row) => row.kind === 'session').map((row) => [row.uid, row.id]));
  const conceptIdByUid = new Map(found.filter((row) => row.kind === 'concept').map((row) => [row.uid, row.id]));

  const errors: FieldErrors = {};
  references.forEach(({ activitySessionUid, conceptUid }, index) => {
    if (activitySessionUid !== undefined && !sessionIdByUid.has(activitySessionUid))
      addFieldError(
        errors,
        `conceptResults[${index}].activitySessionUid`,
        `is not a session of this classroom activity; got ${quote(activitySessionUid)}`,
      );
    if (conceptUid !== undefined && !conceptIdByUid.has(conceptUid))
      addFieldError(errors, `conceptResults[${index}].conceptUid`, `is not a known concept; got ${quote(conceptUid)}`);
  });
  return { sessionIdByUid, conceptIdByUid, errors };
}

/** Maps every uid to its row, or fails with BAD_USER_INPUT naming every unknown one. */
async function resolveReferences(tx: Tx, classroomActivityId: number, results: ConceptResultCommand[]): Promise<ConceptResultRow[]> {
  if (results.length === 0) return [];
  const { sessionIdByUid, conceptIdByUid, errors } = await lookUpReferences(tx, classroomActivityId, results);
  if (Object.keys(errors).length > 0) throw badUserInput(errors);
  return results.map((result) => {
    const conceptId = conceptIdByUid.get(result.conceptUid)!;
    return {
      sessionId: sessionIdByUid.get(result.activitySessionUid)!,
      conceptId,
      questionType: result.questionType,
      metadata: JSON.stringify(result.metadata),
      fingerprint: conceptResultFingerprint(conceptId, result.questionType, result.metadata),
    };
  });
}

/**
 * Reuses (and unlocks) the classroom's visible follow-up classroom activity in the same unit, else creates
 * it; `changed` when it was created or unlocked now (a reused, unlocked one is left as it is).
 */
async function assignFollowUp(
  tx: Tx,
  finished: ClassroomActivity,
  followUpActivityId: number,
): Promise<{ classroomActivity: ClassroomActivity; changed: boolean }> {
  // Two lessons of one classroom finishing at once may share their follow-up activity: each would find
  // none and create one. A lock on the pair (classroom, follow-up activity), held to the end of the
  // transaction, makes the second look only once the first has committed, and reuse what it created.
  // (Advisory keys of two integers are a space of their own: the migration's and the demo's are one bigint.)
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${finished.classroomId}::int, ${followUpActivityId}::int)`;
  const existing = await tx.classroomActivity.findFirst({
    where: { classroomId: finished.classroomId, unitId: finished.unitId, activityId: followUpActivityId, visible: true },
    orderBy: { id: 'asc' },
  });
  if (existing && !existing.locked) return { classroomActivity: existing, changed: false };
  if (existing)
    return { classroomActivity: await tx.classroomActivity.update({ where: { id: existing.id }, data: { locked: false } }), changed: true };
  const created = await tx.classroomActivity.create({
    data: {
      classroomId: finished.classroomId,
      unitId: finished.unitId,
      activityId: followUpActivityId,
      assignedStudentIds: finished.assignedStudentIds,
      assignOnJoin: finished.assignOnJoin,
      visible: true,
      locked: false,
      pinned: false,
    },
  });
  return { classroomActivity: created, changed: true };
}
