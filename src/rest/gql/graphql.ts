/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** One student's answer to one question, recorded against a concept. */
export type ConceptResultInput = {
  /** A visible session of this classroom activity (BAD_USER_INPUT otherwise). */
  activitySessionUid: string;
  /** A known concept's uid (BAD_USER_INPUT otherwise). */
  conceptUid: string;
  /** Counts as the lesson's edition id when the input has none (the first one given). */
  editionId?: string | null | undefined;
  /** The answer's details. */
  metadata: ConceptResultMetadataInput;
  /** The question's type; not blank, stored as sent. */
  questionType: string;
};

/** The answer's details, stored as sent under these names (ConceptResult.metadata). */
export type ConceptResultMetadataInput = {
  /** The student's answer. */
  answer?: string | null | undefined;
  /** Which attempt at the question this answer was. */
  attemptNumber: number;
  /** Whether the answer was correct, as the lessons client scores it (such as 1 or 0). */
  correct: number;
  /** The question's directions. */
  directions?: string | null | undefined;
  /**
   * Further keys, stored as given beside the fields above; a field above that is given wins over a key of its
   * name. `directions`, `prompt` and `answer` here must be strings as above (BAD_USER_INPUT otherwise).
   */
  extra?: Record<string, unknown> | null | undefined;
  /** The question's prompt. */
  prompt?: string | null | undefined;
  /** The question's number in the lesson. */
  questionNumber: number;
};

/** A new activity. Strings are stored as sent (not trimmed); a rule broken is BAD_USER_INPUT on its field. */
export type CreateActivityInput = {
  /** The numeric id of an existing classification. */
  classificationId?: string | number | null | undefined;
  /** A JSON object; {} when left out. */
  data?: Record<string, unknown> | null | undefined;
  /** At most 10,000 characters; empty when left out. */
  description?: string | null | undefined;
  /** At most 20 strings, not blank, each at most 50 characters; left out or empty: ["beta"]. */
  flags?: Array<string> | null | undefined;
  /** The numeric id of an existing activity. */
  followUpActivityId?: string | number | null | undefined;
  /** Not blank, at most 255 characters. */
  name: string;
  /** An http(s) URL. */
  supportingInfo?: string | null | undefined;
  /** 22 URL-safe base64 characters are generated when left out. Unique, not blank, at most 255 characters. */
  uid?: string | null | undefined;
};

/** What the lessons client sends as a lesson ends (finishLesson). */
export type FinishLessonInput = {
  /**
   * One per student and answered slide. At most 10,000 (PAYLOAD_TOO_LARGE beyond). Visible sessions left
   * without any concept result (absent students) are deleted.
   */
  conceptResults?: Array<ConceptResultInput>;
  /**
   * The customized lesson edition taught; not blank. Stored on the classroom activity (null keeps the stored
   * one) and in each session's data. While the classroom activity has one, the teacher gets the milestone
   * `Complete Customized Lesson` (once).
   */
  editionId?: string | null | undefined;
  /**
   * Assign the activity's follow-up activity to the classroom: the classroom's visible classroom activity of
   * it in the same unit is unlocked, else a new one is made. Nothing when the activity has no follow-up.
   */
  followUp?: boolean | null | undefined;
};

/**
 * Changes to an activity: fields left out (or null) keep their value. Strings are stored as sent (not
 * trimmed); a rule broken is BAD_USER_INPUT on its field.
 */
export type UpdateActivityInput = {
  /** The numeric id of an existing classification. */
  classificationId?: string | number | null | undefined;
  /** Replaces the data: a JSON object. */
  data?: Record<string, unknown> | null | undefined;
  /** At most 10,000 characters. */
  description?: string | null | undefined;
  /** Replaces the flags: at most 20 strings, not blank, each at most 50 characters; an empty list leaves none. */
  flags?: Array<string> | null | undefined;
  /** The numeric id of an existing activity other than this one. */
  followUpActivityId?: string | number | null | undefined;
  /** Not blank, at most 255 characters. */
  name?: string | null | undefined;
  /** An http(s) URL. */
  supportingInfo?: string | null | undefined;
  /** Unique, not blank, at most 255 characters. */
  uid?: string | null | undefined;
};

export type LegacyActivityFragment = { id: string, uid: string, name: string, description: string, flags: Array<string>, data: Record<string, unknown>, supportingInfo: string | null, followUpActivityId: string | null, createdAt: string, updatedAt: string, classification: { id: string, key: string, name: string } | null };

export type UidsAndFlagsQueryVariables = Exact<{ [key: string]: never; }>;


export type UidsAndFlagsQuery = { activityFlags: Array<{ uid: string, flag: string | null }> };

export type ActivityQueryVariables = Exact<{
  id: string | number;
}>;


export type ActivityQuery = { activity: { id: string, uid: string, name: string, description: string, flags: Array<string>, data: Record<string, unknown>, supportingInfo: string | null, followUpActivityId: string | null, createdAt: string, updatedAt: string, classification: { id: string, key: string, name: string } | null } | null };

export type FollowUpNameAndSupportingInfoQueryVariables = Exact<{
  id: string | number;
}>;


export type FollowUpNameAndSupportingInfoQuery = { activity: { supportingInfo: string | null, followUpActivity: { name: string } | null } | null };

export type SupportingInfoQueryVariables = Exact<{
  id: string | number;
}>;


export type SupportingInfoQuery = { activity: { supportingInfo: string | null } | null };

export type CreateActivityMutationVariables = Exact<{
  input: CreateActivityInput;
}>;


export type CreateActivityMutation = { activity: { id: string, uid: string, name: string, description: string, flags: Array<string>, data: Record<string, unknown>, supportingInfo: string | null, followUpActivityId: string | null, createdAt: string, updatedAt: string, classification: { id: string, key: string, name: string } | null } };

export type UpdateActivityMutationVariables = Exact<{
  id: string | number;
  input: UpdateActivityInput;
}>;


export type UpdateActivityMutation = { activity: { id: string, uid: string, name: string, description: string, flags: Array<string>, data: Record<string, unknown>, supportingInfo: string | null, followUpActivityId: string | null, createdAt: string, updatedAt: string, classification: { id: string, key: string, name: string } | null } };

export type DeleteActivityMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteActivityMutation = { deleteActivity: { id: string } };

export type PublishEditionMutationVariables = Exact<{ [key: string]: never; }>;


export type PublishEditionMutation = { publishEdition: { user: { id: string } } };

export type StudentNamesQueryVariables = Exact<{
  id: string | number;
}>;


export type StudentNamesQuery = { classroomActivity: { studentNames: Array<{ activitySessionUid: string, name: string }> } | null };

export type TeacherAndClassroomNameQueryVariables = Exact<{
  id: string | number;
}>;


export type TeacherAndClassroomNameQuery = { classroomActivity: { classroom: { name: string, teacher: { name: string } | null } } | null };

export type UnpinAndLockMutationVariables = Exact<{
  id: string | number;
}>;


export type UnpinAndLockMutation = { unpinAndLock: { pinned: boolean } };

export type FinishLessonMutationVariables = Exact<{
  id: string | number;
  input: FinishLessonInput;
}>;


export type FinishLessonMutation = { finishLesson: { followUpUrl: string } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const LegacyActivityFragmentDoc = new TypedDocumentString(`
    fragment LegacyActivity on Activity {
  id
  uid
  name
  description
  flags
  data
  supportingInfo
  followUpActivityId
  classification {
    id
    key
    name
  }
  createdAt
  updatedAt
}
    `, {"fragmentName":"LegacyActivity"}) as unknown as TypedDocumentString<LegacyActivityFragment, unknown>;
export const UidsAndFlagsDocument = new TypedDocumentString(`
    query UidsAndFlags {
  activityFlags {
    uid
    flag
  }
}
    `) as unknown as TypedDocumentString<UidsAndFlagsQuery, UidsAndFlagsQueryVariables>;
export const ActivityDocument = new TypedDocumentString(`
    query Activity($id: ID!) {
  activity(id: $id) {
    ...LegacyActivity
  }
}
    fragment LegacyActivity on Activity {
  id
  uid
  name
  description
  flags
  data
  supportingInfo
  followUpActivityId
  classification {
    id
    key
    name
  }
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<ActivityQuery, ActivityQueryVariables>;
export const FollowUpNameAndSupportingInfoDocument = new TypedDocumentString(`
    query FollowUpNameAndSupportingInfo($id: ID!) {
  activity(id: $id) {
    supportingInfo
    followUpActivity {
      name
    }
  }
}
    `) as unknown as TypedDocumentString<FollowUpNameAndSupportingInfoQuery, FollowUpNameAndSupportingInfoQueryVariables>;
export const SupportingInfoDocument = new TypedDocumentString(`
    query SupportingInfo($id: ID!) {
  activity(id: $id) {
    supportingInfo
  }
}
    `) as unknown as TypedDocumentString<SupportingInfoQuery, SupportingInfoQueryVariables>;
export const CreateActivityDocument = new TypedDocumentString(`
    mutation CreateActivity($input: CreateActivityInput!) {
  activity: createActivity(input: $input) {
    ...LegacyActivity
  }
}
    fragment LegacyActivity on Activity {
  id
  uid
  name
  description
  flags
  data
  supportingInfo
  followUpActivityId
  classification {
    id
    key
    name
  }
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<CreateActivityMutation, CreateActivityMutationVariables>;
export const UpdateActivityDocument = new TypedDocumentString(`
    mutation UpdateActivity($id: ID!, $input: UpdateActivityInput!) {
  activity: updateActivity(id: $id, input: $input) {
    ...LegacyActivity
  }
}
    fragment LegacyActivity on Activity {
  id
  uid
  name
  description
  flags
  data
  supportingInfo
  followUpActivityId
  classification {
    id
    key
    name
  }
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<UpdateActivityMutation, UpdateActivityMutationVariables>;
export const DeleteActivityDocument = new TypedDocumentString(`
    mutation DeleteActivity($id: ID!) {
  deleteActivity(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<DeleteActivityMutation, DeleteActivityMutationVariables>;
export const PublishEditionDocument = new TypedDocumentString(`
    mutation PublishEdition {
  publishEdition {
    user {
      id
    }
  }
}
    `) as unknown as TypedDocumentString<PublishEditionMutation, PublishEditionMutationVariables>;
export const StudentNamesDocument = new TypedDocumentString(`
    query StudentNames($id: ID!) {
  classroomActivity(id: $id) {
    studentNames {
      activitySessionUid
      name
    }
  }
}
    `) as unknown as TypedDocumentString<StudentNamesQuery, StudentNamesQueryVariables>;
export const TeacherAndClassroomNameDocument = new TypedDocumentString(`
    query TeacherAndClassroomName($id: ID!) {
  classroomActivity(id: $id) {
    classroom {
      name
      teacher {
        name
      }
    }
  }
}
    `) as unknown as TypedDocumentString<TeacherAndClassroomNameQuery, TeacherAndClassroomNameQueryVariables>;
export const UnpinAndLockDocument = new TypedDocumentString(`
    mutation UnpinAndLock($id: ID!) {
  unpinAndLock(id: $id) {
    pinned
  }
}
    `) as unknown as TypedDocumentString<UnpinAndLockMutation, UnpinAndLockMutationVariables>;
export const FinishLessonDocument = new TypedDocumentString(`
    mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {
  finishLesson(id: $id, input: $input) {
    followUpUrl
  }
}
    `) as unknown as TypedDocumentString<FinishLessonMutation, FinishLessonMutationVariables>;