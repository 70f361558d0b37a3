import type { ActivitySession, ClassroomActivity, Concept, ConceptResult, User } from '../../generated/prisma/client.ts';
import type { LessonEventMessage } from './lesson-events.ts';

// The values the classroom activity types are resolved from (codegen.ts `mappers` and `enumValues`).

/**
 * A classroom activity. Query.classroomActivity's holds only the columns its operation selects, and the
 * sessions its one statement brought along (read.ts): its `sessions` and `studentNames` answer from them.
 */
export type ClassroomActivityMapper = ClassroomActivity & { sessions?: ActivitySessionMapper[] };

/**
 * A session with its student, as the schema reads it; a read may bring only these columns (read.ts), and
 * the session's concept results, for its field to answer without a statement.
 */
export type ActivitySessionMapper = Pick<ActivitySession, 'id' | 'uid' | 'state' | 'percentage' | 'completedAt' | 'isFinalScore'> & {
  student: User;
  conceptResults?: ConceptResultMapper[];
};

export type ConceptResultMapper = Pick<ConceptResult, 'id' | 'questionType' | 'metadata'> & { concept: Concept };

export type FinishLessonPayloadMapper = {
  followUpUrl: string;
  classroomActivity: ClassroomActivity;
  followUpClassroomActivity: ClassroomActivity | null;
};

/** A lesson event as stored and heard (its id is made of its classroom activity's id and its position). */
export type LessonEventMapper = LessonEventMessage;

/** ActivitySessionState's values as the database stores them. */
export const activitySessionStates = { UNSTARTED: 'unstarted', STARTED: 'started', FINISHED: 'finished' } as const;
