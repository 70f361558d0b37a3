import type { Activity, ActivitySession, ClassroomActivity, Concept, ConceptResult, User } from '../generated/prisma/client.ts';

// The values the payload and connection types are resolved from (codegen `mappers`).

export type FinishLessonResult = {
  followUpUrl: string;
  classroomActivity: ClassroomActivity;
  followUpClassroomActivity: ClassroomActivity | null;
};

export type PublishEditionResult = { user: User };

export type ActivityPage = {
  nodes: Activity[];
  hasNextPage: boolean;
  /** Counted only when a client asks for totalCount. */
  totalCount: () => Promise<number>;
};

/** A row of uids_and_flags: the first flag is picked by the query (thousands of rows, no array to parse). */
export type ActivityUidAndFlag = { uid: string; flag: string | null };

/**
 * A session and a concept result as the schema reads them (with the id their nested loaders key on):
 * a read may bring only these columns (src/modules/classroom-activities/read.ts).
 */
export type SessionWithStudent = Pick<ActivitySession, 'id' | 'uid' | 'state' | 'percentage' | 'completedAt' | 'isFinalScore'> & {
  student: User;
};
export type ConceptResultWithConcept = Pick<ConceptResult, 'id' | 'questionType' | 'metadata'> & { concept: Concept };
