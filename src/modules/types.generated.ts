import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { ActivityMapper, ActivityConnectionMapper, ActivityFlagMapper } from './activities/mappers.ts';
import type { ActivityClassification as ActivityClassificationModel, Classroom as ClassroomModel, Unit as UnitModel, Concept as ConceptModel, User as UserModel, Milestone as MilestoneModel, Objective as ObjectiveModel } from '../generated/prisma/client.ts';
import type { ClassroomActivityMapper, ActivitySessionMapper, ConceptResultMapper, FinishLessonPayloadMapper, LessonEventMapper } from './classroom-activities/mappers.ts';
import type { PublishEditionPayloadMapper } from './milestones/mappers.ts';
import type { RequestContext } from './context.ts';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string | number; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** An ISO 8601 date-time in UTC. */
  DateTime: { input: Date; output: Date | string; }
  /** A JSON object. One a client sends may nest at most 32 levels deep (BAD_USER_INPUT beyond). */
  JSONObject: { input: Record<string, unknown>; output: unknown; }
};

/** An activity, such as a lesson a teacher runs live with a classroom. Anyone may read activities. */
export type Activity = {
  __typename?: 'Activity';
  /** The kind of activity, or null. */
  classification?: Maybe<ActivityClassification>;
  /** When it was created. */
  createdAt: Scalars['DateTime']['output'];
  /** A JSON object, as it was written; the gateway does not interpret it. */
  data: Scalars['JSONObject']['output'];
  /** Its description; empty when it has none. */
  description: Scalars['String']['output'];
  /** The first flag, or null. */
  flag?: Maybe<Scalars['String']['output']>;
  /** Free strings, such as `beta`; may be empty. `activities(flag:)` matches any of them. */
  flags: Array<Scalars['String']['output']>;
  /** The activity a teacher may assign next when finishing a lesson of this one (finishLesson's followUp), or null. */
  followUpActivity?: Maybe<Activity>;
  /** The follow-up activity's numeric id, or null. */
  followUpActivityId?: Maybe<Scalars['ID']['output']>;
  /** The numeric id. */
  id: Scalars['ID']['output'];
  /** The activity's name. */
  name: Scalars['String']['output'];
  /** A URL, or null. */
  supportingInfo?: Maybe<Scalars['String']['output']>;
  /** The unique string id the lessons client knows it by. */
  uid: Scalars['String']['output'];
  /** When it last changed. */
  updatedAt: Scalars['DateTime']['output'];
};

/** A kind of activity, such as the lessons or connect activities. */
export type ActivityClassification = {
  __typename?: 'ActivityClassification';
  /** The numeric id. */
  id: Scalars['ID']['output'];
  /** A unique key, such as `lessons` or `connect`. */
  key: Scalars['String']['output'];
  /** Its name. */
  name: Scalars['String']['output'];
};

/** A page of activities (Query.activities). */
export type ActivityConnection = {
  __typename?: 'ActivityConnection';
  /** The page's activities, in id order. */
  edges: Array<ActivityEdge>;
  /** Where the page ends and whether more follow. */
  pageInfo: PageInfo;
  /** How many activities match, across all pages. */
  totalCount: Scalars['Int']['output'];
};

/** An activity on a page, with its cursor. */
export type ActivityEdge = {
  __typename?: 'ActivityEdge';
  /** Opaque; as `after`, the next page starts after this activity. */
  cursor: Scalars['String']['output'];
  /** The activity. */
  node: Activity;
};

/** An activity's uid and first flag (Query.activityFlags). */
export type ActivityFlag = {
  __typename?: 'ActivityFlag';
  /** The first flag, or null. */
  flag?: Maybe<Scalars['String']['output']>;
  /** The activity's uid. */
  uid: Scalars['String']['output'];
};

/** One student's part in a classroom activity. */
export type ActivitySession = {
  __typename?: 'ActivitySession';
  /** When it was finished, or null. finishLesson sets it unless already set. */
  completedAt?: Maybe<Scalars['DateTime']['output']>;
  /** The session's concept results, in the order they were saved. */
  conceptResults: Array<ConceptResult>;
  /** Whether percentage is final. finishLesson sets true. */
  isFinalScore: Scalars['Boolean']['output'];
  /** From 0 to 1, or null. finishLesson sets 1. */
  percentage?: Maybe<Scalars['Float']['output']>;
  /** Where the student is. */
  state: ActivitySessionState;
  /** The student. */
  student: User;
  /** The unique string id (finishLesson's activitySessionUid). */
  uid: Scalars['String']['output'];
};

/** Where a student is in a lesson. */
export type ActivitySessionState =
  /** Finished; finishLesson finishes every session of its classroom activity. */
  | 'finished'
  /** Begun, not finished. */
  | 'started'
  /** Not begun yet; launchLesson gives assigned students sessions in this state. */
  | 'unstarted';

/** A class of students and its teachers. */
export type Classroom = {
  __typename?: 'Classroom';
  /** The numeric id. */
  id: Scalars['ID']['output'];
  /** The classroom's name. */
  name: Scalars['String']['output'];
  /** The classroom's owner, or null when it has none. */
  teacher?: Maybe<User>;
};

/**
 * An activity assigned to a classroom, with its students' sessions. Only a teacher of the classroom (owner
 * or co-teacher) may read it.
 */
export type ClassroomActivity = {
  __typename?: 'ClassroomActivity';
  /** The activity assigned. */
  activity: Activity;
  /**
   * Whether students who join the classroom later get it too. Kept for the main application: this gateway
   * only copies it to a follow-up classroom activity it creates.
   */
  assignOnJoin: Scalars['Boolean']['output'];
  /** The user ids of the students it is assigned to; launchLesson gives each of them who is a user and has no session an unstarted one. */
  assignedStudentIds: Array<Scalars['ID']['output']>;
  /** The classroom it is assigned to (also when that classroom is archived). */
  classroom: Classroom;
  /** Whether the lesson was finished (finishLesson). */
  completed: Scalars['Boolean']['output'];
  /** When it is due, or null. */
  dueDate?: Maybe<Scalars['DateTime']['output']>;
  /** The customized lesson edition it ran, or null; finishLesson stores one it is given. */
  editionId?: Maybe<Scalars['String']['output']>;
  /** The numeric id. */
  id: Scalars['ID']['output'];
  /**
   * The id of its latest lesson event, or a cursor before its first when it has none: read it with the state
   * the screen shows, then subscribe to lessonEvents after it to miss nothing in between. Always safe to
   * subscribe after, even once its events are older than the retention.
   */
  lessonEventCursor: Scalars['ID']['output'];
  /** Whether it is locked: launchLesson unlocks it; unpinAndLock and finishLesson lock it. */
  locked: Scalars['Boolean']['output'];
  /** Whether it is pinned as its classroom's live lesson: launchLesson pins it; unpinAndLock and finishLesson unpin it. */
  pinned: Scalars['Boolean']['output'];
  /** The visible sessions, in id order. */
  sessions: Array<ActivitySession>;
  /** One entry per visible session, in session id order: the names shown on the projector. */
  studentNames: Array<StudentName>;
  /** The unit that groups it, or null. */
  unit?: Maybe<Unit>;
};

/** What a concept result records a student's answer against. */
export type Concept = {
  __typename?: 'Concept';
  /** The concept's name. */
  name: Scalars['String']['output'];
  /** The unique string id (finishLesson's conceptUid). */
  uid: Scalars['String']['output'];
};

/** One student's answer to one question, recorded against a concept. */
export type ConceptResult = {
  __typename?: 'ConceptResult';
  /** The concept the answer is recorded against. */
  concept: Concept;
  /**
   * The answer's details as saved: `correct`, `attemptNumber`, `questionNumber`, and `directions`, `prompt`
   * and `answer` when sent, beside any further keys (ConceptResultMetadataInput.extra).
   */
  metadata: Scalars['JSONObject']['output'];
  /** The question's type, as sent. */
  questionType: Scalars['String']['output'];
};

/** One student's answer to one question, recorded against a concept. */
export type ConceptResultInput = {
  /** A visible session of this classroom activity (BAD_USER_INPUT otherwise). */
  activitySessionUid: Scalars['String']['input'];
  /** A known concept's uid (BAD_USER_INPUT otherwise). */
  conceptUid: Scalars['String']['input'];
  /** Counts as the lesson's edition id when the input has none (the first one given). */
  editionId?: InputMaybe<Scalars['String']['input']>;
  /** The answer's details. */
  metadata: ConceptResultMetadataInput;
  /** The question's type; not blank, stored as sent. */
  questionType: Scalars['String']['input'];
};

/** The answer's details, stored as sent under these names (ConceptResult.metadata). */
export type ConceptResultMetadataInput = {
  /** The student's answer. */
  answer?: InputMaybe<Scalars['String']['input']>;
  /** Which attempt at the question this answer was. */
  attemptNumber: Scalars['Int']['input'];
  /** Whether the answer was correct, as the lessons client scores it (such as 1 or 0). */
  correct: Scalars['Int']['input'];
  /** The question's directions. */
  directions?: InputMaybe<Scalars['String']['input']>;
  /**
   * Further keys, stored as given beside the fields above; a field above that is given wins over a key of its
   * name. `directions`, `prompt` and `answer` here must be strings as above (BAD_USER_INPUT otherwise).
   */
  extra?: InputMaybe<Scalars['JSONObject']['input']>;
  /** The question's prompt. */
  prompt?: InputMaybe<Scalars['String']['input']>;
  /** The question's number in the lesson. */
  questionNumber: Scalars['Int']['input'];
};

/** A new activity. Strings are stored as sent (not trimmed); a rule broken is BAD_USER_INPUT on its field. */
export type CreateActivityInput = {
  /** The numeric id of an existing classification. */
  classificationId?: InputMaybe<Scalars['ID']['input']>;
  /** A JSON object; {} when left out. */
  data?: InputMaybe<Scalars['JSONObject']['input']>;
  /** At most 10,000 characters; empty when left out. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** At most 20 strings, not blank, each at most 50 characters; left out or empty: ["beta"]. */
  flags?: InputMaybe<Array<Scalars['String']['input']>>;
  /** The numeric id of an existing activity. */
  followUpActivityId?: InputMaybe<Scalars['ID']['input']>;
  /** Not blank, at most 255 characters. */
  name: Scalars['String']['input'];
  /** An http(s) URL. */
  supportingInfo?: InputMaybe<Scalars['String']['input']>;
  /** 22 URL-safe base64 characters are generated when left out. Unique, not blank, at most 255 characters. */
  uid?: InputMaybe<Scalars['String']['input']>;
};

/** What deleteActivity did. */
export type DeleteActivityPayload = {
  __typename?: 'DeleteActivityPayload';
  /** The deleted activity's numeric id. */
  id: Scalars['ID']['output'];
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
  editionId?: InputMaybe<Scalars['String']['input']>;
  /**
   * Assign the activity's follow-up activity to the classroom: the classroom's visible classroom activity of
   * it in the same unit is unlocked, else a new one is made. Nothing when the activity has no follow-up.
   */
  followUp?: InputMaybe<Scalars['Boolean']['input']>;
};

/** What finishLesson did. */
export type FinishLessonPayload = {
  __typename?: 'FinishLessonPayload';
  /** The classroom activity, as finishing left it. */
  classroomActivity: ClassroomActivity;
  /** The follow-up classroom activity reused or made, or null when none was asked for or the activity has no follow-up. */
  followUpClassroomActivity?: Maybe<ClassroomActivity>;
  /**
   * The follow-up classroom activity's page (`<APP_URL>/teachers/classroom_activities/<id>/activity_from_classroom_activity`),
   * or the teacher's profile (`<APP_URL>`).
   */
  followUpUrl: Scalars['String']['output'];
};

/** A change to a live lesson (Subscription.lessonEvents). */
export type LessonEvent = {
  __typename?: 'LessonEvent';
  /** When the change was committed. */
  at: Scalars['DateTime']['output'];
  /** The classroom activity's numeric id. */
  classroomActivityId: Scalars['ID']['output'];
  /** The classroom activity's completed, as the change left it. */
  completed: Scalars['Boolean']['output'];
  /** On FINISHED: the follow-up URL finishLesson returned; else null. */
  followUpUrl?: Maybe<Scalars['String']['output']>;
  /** An opaque cursor (subscribe after it to resume): later events of one classroom activity have later ids, compared as strings. */
  id: Scalars['ID']['output'];
  /** What happened. */
  kind: LessonEventKind;
  /** The classroom activity's locked, as the change left it. */
  locked: Scalars['Boolean']['output'];
  /** The classroom activity's pinned, as the change left it. */
  pinned: Scalars['Boolean']['output'];
};

/** What happened to a live lesson. */
export type LessonEventKind =
  /** finishLesson ended it (a retry that changed nothing sends no event). */
  | 'FINISHED'
  /** launchLesson started it. */
  | 'LAUNCHED'
  /** unpinAndLock locked it. */
  | 'LOCKED';

/** Something a user achieved, such as publishing or completing a customized lesson. */
export type Milestone = {
  __typename?: 'Milestone';
  /** Unique, such as `Publish Customized Lesson` or `Complete Customized Lesson`. */
  name: Scalars['String']['output'];
};

/**
 * Changes. Live lessons (launch, lock, finish) are for a teacher of the classroom (owner or co-teacher);
 * activity writes are for staff. A change that takes an id checks it first (NOT_FOUND), then credentials
 * (UNAUTHENTICATED), then the right (FORBIDDEN), then its input's rules (BAD_USER_INPUT). An argument of the
 * wrong GraphQL type is refused before any of these.
 */
export type Mutation = {
  __typename?: 'Mutation';
  /**
   * Staff only (UNAUTHENTICATED, FORBIDDEN). With no flags, an activity gets ["beta"]; with no uid, a
   * generated one. BAD_USER_INPUT when a field breaks its rule (`extensions.fields` names them) or the uid is
   * taken.
   */
  createActivity: Activity;
  /**
   * Staff only (UNAUTHENTICATED, FORBIDDEN). Deletes the activity with its classroom activities and their
   * sessions; activities that had it as their follow-up are left without one. NOT_FOUND when unknown.
   */
  deleteActivity: DeleteActivityPayload;
  /**
   * Ends a live lesson: finishes every session, saves the concept results, drops absent students'
   * sessions, locks the classroom activity and assigns the follow-up when asked. Safe to retry.
   * NOT_FOUND when unknown or hidden. Only a teacher of its classroom (UNAUTHENTICATED, FORBIDDEN).
   * BAD_USER_INPUT names every malformed field, unknown session and unknown concept at once, and nothing is
   * changed; PAYLOAD_TOO_LARGE beyond 10,000 concept results.
   */
  finishLesson: FinishLessonPayload;
  /**
   * Starts a live lesson: unlocks and pins it, unpins the classroom's other classroom activities and gives
   * each assigned student without a session an unstarted one. NOT_FOUND when unknown or hidden. Only a
   * teacher of its classroom (UNAUTHENTICATED, FORBIDDEN).
   */
  launchLesson: ClassroomActivity;
  /**
   * Records that the signed-in user published a customized lesson edition: they get the objective and the
   * milestone `Publish Customized Lesson`, each once. Idempotent. UNAUTHENTICATED when not signed in.
   */
  publishEdition: PublishEditionPayload;
  /**
   * Sets pinned = false and locked = true. NOT_FOUND when unknown or hidden. Only a teacher of its classroom
   * (UNAUTHENTICATED, FORBIDDEN).
   */
  unpinAndLock: ClassroomActivity;
  /**
   * Staff only (UNAUTHENTICATED, FORBIDDEN). Fields left out (or null) keep their value. NOT_FOUND when
   * unknown. BAD_USER_INPUT when a field breaks its rule (`extensions.fields` names them) or the uid is taken.
   */
  updateActivity: Activity;
};


/**
 * Changes. Live lessons (launch, lock, finish) are for a teacher of the classroom (owner or co-teacher);
 * activity writes are for staff. A change that takes an id checks it first (NOT_FOUND), then credentials
 * (UNAUTHENTICATED), then the right (FORBIDDEN), then its input's rules (BAD_USER_INPUT). An argument of the
 * wrong GraphQL type is refused before any of these.
 */
export type MutationCreateActivityArgs = {
  input: CreateActivityInput;
};


/**
 * Changes. Live lessons (launch, lock, finish) are for a teacher of the classroom (owner or co-teacher);
 * activity writes are for staff. A change that takes an id checks it first (NOT_FOUND), then credentials
 * (UNAUTHENTICATED), then the right (FORBIDDEN), then its input's rules (BAD_USER_INPUT). An argument of the
 * wrong GraphQL type is refused before any of these.
 */
export type MutationDeleteActivityArgs = {
  id: Scalars['ID']['input'];
};


/**
 * Changes. Live lessons (launch, lock, finish) are for a teacher of the classroom (owner or co-teacher);
 * activity writes are for staff. A change that takes an id checks it first (NOT_FOUND), then credentials
 * (UNAUTHENTICATED), then the right (FORBIDDEN), then its input's rules (BAD_USER_INPUT). An argument of the
 * wrong GraphQL type is refused before any of these.
 */
export type MutationFinishLessonArgs = {
  id: Scalars['ID']['input'];
  input: FinishLessonInput;
};


/**
 * Changes. Live lessons (launch, lock, finish) are for a teacher of the classroom (owner or co-teacher);
 * activity writes are for staff. A change that takes an id checks it first (NOT_FOUND), then credentials
 * (UNAUTHENTICATED), then the right (FORBIDDEN), then its input's rules (BAD_USER_INPUT). An argument of the
 * wrong GraphQL type is refused before any of these.
 */
export type MutationLaunchLessonArgs = {
  id: Scalars['ID']['input'];
};


/**
 * Changes. Live lessons (launch, lock, finish) are for a teacher of the classroom (owner or co-teacher);
 * activity writes are for staff. A change that takes an id checks it first (NOT_FOUND), then credentials
 * (UNAUTHENTICATED), then the right (FORBIDDEN), then its input's rules (BAD_USER_INPUT). An argument of the
 * wrong GraphQL type is refused before any of these.
 */
export type MutationUnpinAndLockArgs = {
  id: Scalars['ID']['input'];
};


/**
 * Changes. Live lessons (launch, lock, finish) are for a teacher of the classroom (owner or co-teacher);
 * activity writes are for staff. A change that takes an id checks it first (NOT_FOUND), then credentials
 * (UNAUTHENTICATED), then the right (FORBIDDEN), then its input's rules (BAD_USER_INPUT). An argument of the
 * wrong GraphQL type is refused before any of these.
 */
export type MutationUpdateActivityArgs = {
  id: Scalars['ID']['input'];
  input: UpdateActivityInput;
};

/** A goal a user reached, such as publishing a customized lesson. */
export type Objective = {
  __typename?: 'Objective';
  /** Unique, such as `Publish Customized Lesson`. */
  name: Scalars['String']['output'];
};

/** Where a page ends. */
export type PageInfo = {
  __typename?: 'PageInfo';
  /** The last edge's cursor, to pass as `after` for the next page; null when the page is empty. */
  endCursor?: Maybe<Scalars['String']['output']>;
  /** Whether more activities follow this page. */
  hasNextPage: Scalars['Boolean']['output'];
};

/** What publishEdition did. */
export type PublishEditionPayload = {
  __typename?: 'PublishEditionPayload';
  /** The signed-in user. */
  user: User;
};

/** Reads. Anyone may read activities; classroom activities are for their classroom's teachers. */
export type Query = {
  __typename?: 'Query';
  /**
   * Activities in id order, Relay-style. `flag` keeps activities having that flag among their flags. Anyone
   * may read them. BAD_USER_INPUT for `first` outside 0 to 100 or a cursor not from this API.
   */
  activities: ActivityConnection;
  /** An activity by uid, else by numeric id; null when unknown. Anyone may read activities. */
  activity?: Maybe<Activity>;
  /** Every activity's uid and first flag, in id order (the lessons client's uids_and_flags). Anyone may read it. */
  activityFlags: Array<ActivityFlag>;
  /** Null when unknown or hidden. Only a teacher of its classroom may read it (UNAUTHENTICATED, FORBIDDEN). */
  classroomActivity?: Maybe<ClassroomActivity>;
  /** The signed-in user, or null. */
  viewer?: Maybe<User>;
};


/** Reads. Anyone may read activities; classroom activities are for their classroom's teachers. */
export type QueryActivitiesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  flag?: InputMaybe<Scalars['String']['input']>;
};


/** Reads. Anyone may read activities; classroom activities are for their classroom's teachers. */
export type QueryActivityArgs = {
  id: Scalars['ID']['input'];
};


/** Reads. Anyone may read activities; classroom activities are for their classroom's teachers. */
export type QueryClassroomActivityArgs = {
  id: Scalars['ID']['input'];
};

/** A session's uid and its student's name (ClassroomActivity.studentNames). */
export type StudentName = {
  __typename?: 'StudentName';
  /** The session's uid. */
  activitySessionUid: Scalars['String']['output'];
  /** The student's name. */
  name: Scalars['String']['output'];
};

/**
 * Live lessons, over WebSocket (graphql-transport-ws) at the same /graphql URL. The token goes in the
 * connection_init payload as `{"authorization": "Bearer <token>"}`.
 */
export type Subscription = {
  __typename?: 'Subscription';
  /**
   * Each committed launch, lock and finish of the classroom activity, in commit order. Teachers of its
   * classroom, and students with a visible session in it or assigned to it. NOT_FOUND when unknown or hidden.
   * Refused callers (NOT_FOUND, UNAUTHENTICATED, FORBIDDEN) get one error and the subscription ends.
   * With `after`: first every stored event after it, in order, then the live ones, none missed or doubled.
   */
  lessonEvents: LessonEvent;
};


/**
 * Live lessons, over WebSocket (graphql-transport-ws) at the same /graphql URL. The token goes in the
 * connection_init payload as `{"authorization": "Bearer <token>"}`.
 */
export type SubscriptionLessonEventsArgs = {
  after?: InputMaybe<Scalars['ID']['input']>;
  classroomActivityId: Scalars['ID']['input'];
};

/** A named group of assigned activities. */
export type Unit = {
  __typename?: 'Unit';
  /** The numeric id. */
  id: Scalars['ID']['output'];
  /** The unit's name. */
  name: Scalars['String']['output'];
};

/**
 * Changes to an activity: fields left out (or null) keep their value. Strings are stored as sent (not
 * trimmed); a rule broken is BAD_USER_INPUT on its field.
 */
export type UpdateActivityInput = {
  /** The numeric id of an existing classification. */
  classificationId?: InputMaybe<Scalars['ID']['input']>;
  /** Replaces the data: a JSON object. */
  data?: InputMaybe<Scalars['JSONObject']['input']>;
  /** At most 10,000 characters. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** Replaces the flags: at most 20 strings, not blank, each at most 50 characters; an empty list leaves none. */
  flags?: InputMaybe<Array<Scalars['String']['input']>>;
  /** The numeric id of an existing activity other than this one. */
  followUpActivityId?: InputMaybe<Scalars['ID']['input']>;
  /** Not blank, at most 255 characters. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** An http(s) URL. */
  supportingInfo?: InputMaybe<Scalars['String']['input']>;
  /** Unique, not blank, at most 255 characters. */
  uid?: InputMaybe<Scalars['String']['input']>;
};

/** A user of the platform: a teacher, a student or staff. */
export type User = {
  __typename?: 'User';
  /** The numeric id. */
  id: Scalars['ID']['output'];
  /** Only the user themself may read these (FORBIDDEN otherwise). */
  milestones: Array<Milestone>;
  /** The user's name. */
  name: Scalars['String']['output'];
  /** Only the user themself may read these (FORBIDDEN otherwise). */
  objectives: Array<Objective>;
  /** What the user is. */
  role: UserRole;
};

/** What a user is on the platform. */
export type UserRole =
  /** Runs the platform; may create, update and delete activities. */
  | 'staff'
  /** Takes part in lessons. */
  | 'student'
  /** Teaches classrooms. */
  | 'teacher';



export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;





/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  Activity: ResolverTypeWrapper<ActivityMapper>;
  ActivityClassification: ResolverTypeWrapper<ActivityClassificationModel>;
  ActivityConnection: ResolverTypeWrapper<ActivityConnectionMapper>;
  ActivityEdge: ResolverTypeWrapper<Omit<ActivityEdge, 'node'> & { node: ResolversTypes['Activity'] }>;
  ActivityFlag: ResolverTypeWrapper<ActivityFlagMapper>;
  ActivitySession: ResolverTypeWrapper<ActivitySessionMapper>;
  ActivitySessionState: null;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  Classroom: ResolverTypeWrapper<ClassroomModel>;
  ClassroomActivity: ResolverTypeWrapper<ClassroomActivityMapper>;
  Concept: ResolverTypeWrapper<ConceptModel>;
  ConceptResult: ResolverTypeWrapper<ConceptResultMapper>;
  ConceptResultInput: ConceptResultInput;
  ConceptResultMetadataInput: ConceptResultMetadataInput;
  CreateActivityInput: CreateActivityInput;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  DeleteActivityPayload: ResolverTypeWrapper<DeleteActivityPayload>;
  FinishLessonInput: FinishLessonInput;
  FinishLessonPayload: ResolverTypeWrapper<FinishLessonPayloadMapper>;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  JSONObject: ResolverTypeWrapper<Scalars['JSONObject']['output']>;
  LessonEvent: ResolverTypeWrapper<LessonEventMapper>;
  LessonEventKind: LessonEventKind;
  Milestone: ResolverTypeWrapper<MilestoneModel>;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Objective: ResolverTypeWrapper<ObjectiveModel>;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  PublishEditionPayload: ResolverTypeWrapper<PublishEditionPayloadMapper>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  StudentName: ResolverTypeWrapper<StudentName>;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Unit: ResolverTypeWrapper<UnitModel>;
  UpdateActivityInput: UpdateActivityInput;
  User: ResolverTypeWrapper<UserModel>;
  UserRole: null;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  Activity: ActivityMapper;
  ActivityClassification: ActivityClassificationModel;
  ActivityConnection: ActivityConnectionMapper;
  ActivityEdge: Omit<ActivityEdge, 'node'> & { node: ResolversParentTypes['Activity'] };
  ActivityFlag: ActivityFlagMapper;
  ActivitySession: ActivitySessionMapper;
  Boolean: Scalars['Boolean']['output'];
  Classroom: ClassroomModel;
  ClassroomActivity: ClassroomActivityMapper;
  Concept: ConceptModel;
  ConceptResult: ConceptResultMapper;
  ConceptResultInput: ConceptResultInput;
  ConceptResultMetadataInput: ConceptResultMetadataInput;
  CreateActivityInput: CreateActivityInput;
  DateTime: Scalars['DateTime']['output'];
  DeleteActivityPayload: DeleteActivityPayload;
  FinishLessonInput: FinishLessonInput;
  FinishLessonPayload: FinishLessonPayloadMapper;
  Float: Scalars['Float']['output'];
  ID: Scalars['ID']['output'];
  Int: Scalars['Int']['output'];
  JSONObject: Scalars['JSONObject']['output'];
  LessonEvent: LessonEventMapper;
  Milestone: MilestoneModel;
  Mutation: Record<PropertyKey, never>;
  Objective: ObjectiveModel;
  PageInfo: PageInfo;
  PublishEditionPayload: PublishEditionPayloadMapper;
  Query: Record<PropertyKey, never>;
  String: Scalars['String']['output'];
  StudentName: StudentName;
  Subscription: Record<PropertyKey, never>;
  Unit: UnitModel;
  UpdateActivityInput: UpdateActivityInput;
  User: UserModel;
};

export type ActivityResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Activity'] = ResolversParentTypes['Activity']> = {
  classification?: Resolver<Maybe<ResolversTypes['ActivityClassification']>, ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  data?: Resolver<ResolversTypes['JSONObject'], ParentType, ContextType>;
  description?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  flag?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  flags?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  followUpActivity?: Resolver<Maybe<ResolversTypes['Activity']>, ParentType, ContextType>;
  followUpActivityId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  supportingInfo?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  uid?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
};

export type ActivityClassificationResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ActivityClassification'] = ResolversParentTypes['ActivityClassification']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  key?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ActivityConnectionResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ActivityConnection'] = ResolversParentTypes['ActivityConnection']> = {
  edges?: Resolver<Array<ResolversTypes['ActivityEdge']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type ActivityEdgeResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ActivityEdge'] = ResolversParentTypes['ActivityEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Activity'], ParentType, ContextType>;
};

export type ActivityFlagResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ActivityFlag'] = ResolversParentTypes['ActivityFlag']> = {
  flag?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  uid?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ActivitySessionResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ActivitySession'] = ResolversParentTypes['ActivitySession']> = {
  completedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  conceptResults?: Resolver<Array<ResolversTypes['ConceptResult']>, ParentType, ContextType>;
  isFinalScore?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  percentage?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  state?: Resolver<ResolversTypes['ActivitySessionState'], ParentType, ContextType>;
  student?: Resolver<ResolversTypes['User'], ParentType, ContextType>;
  uid?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ActivitySessionStateResolvers = { FINISHED: 'finished', STARTED: 'started', UNSTARTED: 'unstarted' };

export type ClassroomResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Classroom'] = ResolversParentTypes['Classroom']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  teacher?: Resolver<Maybe<ResolversTypes['User']>, ParentType, ContextType>;
};

export type ClassroomActivityResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ClassroomActivity'] = ResolversParentTypes['ClassroomActivity']> = {
  activity?: Resolver<ResolversTypes['Activity'], ParentType, ContextType>;
  assignOnJoin?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  assignedStudentIds?: Resolver<Array<ResolversTypes['ID']>, ParentType, ContextType>;
  classroom?: Resolver<ResolversTypes['Classroom'], ParentType, ContextType>;
  completed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  dueDate?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  editionId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lessonEventCursor?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  locked?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  pinned?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  sessions?: Resolver<Array<ResolversTypes['ActivitySession']>, ParentType, ContextType>;
  studentNames?: Resolver<Array<ResolversTypes['StudentName']>, ParentType, ContextType>;
  unit?: Resolver<Maybe<ResolversTypes['Unit']>, ParentType, ContextType>;
};

export type ConceptResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Concept'] = ResolversParentTypes['Concept']> = {
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  uid?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ConceptResultResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ConceptResult'] = ResolversParentTypes['ConceptResult']> = {
  concept?: Resolver<ResolversTypes['Concept'], ParentType, ContextType>;
  metadata?: Resolver<ResolversTypes['JSONObject'], ParentType, ContextType>;
  questionType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type DeleteActivityPayloadResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['DeleteActivityPayload'] = ResolversParentTypes['DeleteActivityPayload']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type FinishLessonPayloadResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['FinishLessonPayload'] = ResolversParentTypes['FinishLessonPayload']> = {
  classroomActivity?: Resolver<ResolversTypes['ClassroomActivity'], ParentType, ContextType>;
  followUpClassroomActivity?: Resolver<Maybe<ResolversTypes['ClassroomActivity']>, ParentType, ContextType>;
  followUpUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export interface JsonObjectScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['JSONObject'], any> {
  name: 'JSONObject';
}

export type LessonEventResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['LessonEvent'] = ResolversParentTypes['LessonEvent']> = {
  at?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  classroomActivityId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  completed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  followUpUrl?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['LessonEventKind'], ParentType, ContextType>;
  locked?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  pinned?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type MilestoneResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Milestone'] = ResolversParentTypes['Milestone']> = {
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type MutationResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  createActivity?: Resolver<ResolversTypes['Activity'], ParentType, ContextType, RequireFields<MutationCreateActivityArgs, 'input'>>;
  deleteActivity?: Resolver<ResolversTypes['DeleteActivityPayload'], ParentType, ContextType, RequireFields<MutationDeleteActivityArgs, 'id'>>;
  finishLesson?: Resolver<ResolversTypes['FinishLessonPayload'], ParentType, ContextType, RequireFields<MutationFinishLessonArgs, 'id' | 'input'>>;
  launchLesson?: Resolver<ResolversTypes['ClassroomActivity'], ParentType, ContextType, RequireFields<MutationLaunchLessonArgs, 'id'>>;
  publishEdition?: Resolver<ResolversTypes['PublishEditionPayload'], ParentType, ContextType>;
  unpinAndLock?: Resolver<ResolversTypes['ClassroomActivity'], ParentType, ContextType, RequireFields<MutationUnpinAndLockArgs, 'id'>>;
  updateActivity?: Resolver<ResolversTypes['Activity'], ParentType, ContextType, RequireFields<MutationUpdateActivityArgs, 'id' | 'input'>>;
};

export type ObjectiveResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Objective'] = ResolversParentTypes['Objective']> = {
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type PageInfoResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type PublishEditionPayloadResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['PublishEditionPayload'] = ResolversParentTypes['PublishEditionPayload']> = {
  user?: Resolver<ResolversTypes['User'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  activities?: Resolver<ResolversTypes['ActivityConnection'], ParentType, ContextType, RequireFields<QueryActivitiesArgs, 'first'>>;
  activity?: Resolver<Maybe<ResolversTypes['Activity']>, ParentType, ContextType, RequireFields<QueryActivityArgs, 'id'>>;
  activityFlags?: Resolver<Array<ResolversTypes['ActivityFlag']>, ParentType, ContextType>;
  classroomActivity?: Resolver<Maybe<ResolversTypes['ClassroomActivity']>, ParentType, ContextType, RequireFields<QueryClassroomActivityArgs, 'id'>>;
  viewer?: Resolver<Maybe<ResolversTypes['User']>, ParentType, ContextType>;
};

export type StudentNameResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['StudentName'] = ResolversParentTypes['StudentName']> = {
  activitySessionUid?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type SubscriptionResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = {
  lessonEvents?: SubscriptionResolver<ResolversTypes['LessonEvent'], "lessonEvents", ParentType, ContextType, RequireFields<SubscriptionLessonEventsArgs, 'classroomActivityId'>>;
};

export type UnitResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Unit'] = ResolversParentTypes['Unit']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type UserResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['User'] = ResolversParentTypes['User']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  milestones?: Resolver<Array<ResolversTypes['Milestone']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  objectives?: Resolver<Array<ResolversTypes['Objective']>, ParentType, ContextType>;
  role?: Resolver<ResolversTypes['UserRole'], ParentType, ContextType>;
};

export type UserRoleResolvers = { STAFF: 'staff', STUDENT: 'student', TEACHER: 'teacher' };

export type Resolvers<ContextType = RequestContext> = {
  Activity?: ActivityResolvers<ContextType>;
  ActivityClassification?: ActivityClassificationResolvers<ContextType>;
  ActivityConnection?: ActivityConnectionResolvers<ContextType>;
  ActivityEdge?: ActivityEdgeResolvers<ContextType>;
  ActivityFlag?: ActivityFlagResolvers<ContextType>;
  ActivitySession?: ActivitySessionResolvers<ContextType>;
  ActivitySessionState?: ActivitySessionStateResolvers;
  Classroom?: ClassroomResolvers<ContextType>;
  ClassroomActivity?: ClassroomActivityResolvers<ContextType>;
  Concept?: ConceptResolvers<ContextType>;
  ConceptResult?: ConceptResultResolvers<ContextType>;
  DateTime?: GraphQLScalarType;
  DeleteActivityPayload?: DeleteActivityPayloadResolvers<ContextType>;
  FinishLessonPayload?: FinishLessonPayloadResolvers<ContextType>;
  JSONObject?: GraphQLScalarType;
  LessonEvent?: LessonEventResolvers<ContextType>;
  Milestone?: MilestoneResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  Objective?: ObjectiveResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  PublishEditionPayload?: PublishEditionPayloadResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  StudentName?: StudentNameResolvers<ContextType>;
  Subscription?: SubscriptionResolvers<ContextType>;
  Unit?: UnitResolvers<ContextType>;
  User?: UserResolvers<ContextType>;
  UserRole?: UserRoleResolvers;
};

