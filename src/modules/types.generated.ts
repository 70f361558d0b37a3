import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { ActivityMapper, ActivityConnectionMapper, ActivityFlagMapper } from './activities/mappers.ts';
import type { ActivityClassification as ActivityClassificationModel, Classroom as ClassroomModel, Unit as UnitModel, Concept as ConceptModel, User as UserModel, Milestone as MilestoneModel, Objective as ObjectiveModel } from '../generated/prisma/client.ts';
import type { ClassroomActivityMapper, ActivitySessionMapper, ConceptResultMapper, FinishLessonPayloadMapper } from './classroom-activities/mappers.ts';
import type { PublishEditionPayloadMapper } from './milestones/mappers.ts';
import type { GraphQLContext } from './context.ts';
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
  /** A JSON object. */
  JSONObject: { input: Record<string, unknown>; output: unknown; }
};

export type Activity = {
  __typename?: 'Activity';
  classification?: Maybe<ActivityClassification>;
  createdAt: Scalars['DateTime']['output'];
  data: Scalars['JSONObject']['output'];
  description: Scalars['String']['output'];
  /** The first flag, or null. */
  flag?: Maybe<Scalars['String']['output']>;
  flags: Array<Scalars['String']['output']>;
  followUpActivity?: Maybe<Activity>;
  followUpActivityId?: Maybe<Scalars['ID']['output']>;
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  /** A URL, or null. */
  supportingInfo?: Maybe<Scalars['String']['output']>;
  uid: Scalars['String']['output'];
  updatedAt: Scalars['DateTime']['output'];
};

export type ActivityClassification = {
  __typename?: 'ActivityClassification';
  id: Scalars['ID']['output'];
  key: Scalars['String']['output'];
  name: Scalars['String']['output'];
};

export type ActivityConnection = {
  __typename?: 'ActivityConnection';
  edges: Array<ActivityEdge>;
  pageInfo: PageInfo;
  /** How many activities match, across all pages. */
  totalCount: Scalars['Int']['output'];
};

export type ActivityEdge = {
  __typename?: 'ActivityEdge';
  cursor: Scalars['String']['output'];
  node: Activity;
};

export type ActivityFlag = {
  __typename?: 'ActivityFlag';
  /** The first flag, or null. */
  flag?: Maybe<Scalars['String']['output']>;
  uid: Scalars['String']['output'];
};

export type ActivitySession = {
  __typename?: 'ActivitySession';
  completedAt?: Maybe<Scalars['DateTime']['output']>;
  conceptResults: Array<ConceptResult>;
  isFinalScore: Scalars['Boolean']['output'];
  /** From 0 to 1, or null. */
  percentage?: Maybe<Scalars['Float']['output']>;
  state: ActivitySessionState;
  student: User;
  uid: Scalars['String']['output'];
};

export type ActivitySessionState =
  | 'finished'
  | 'started'
  | 'unstarted';

export type Classroom = {
  __typename?: 'Classroom';
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  /** The classroom's owner. */
  teacher?: Maybe<User>;
};

export type ClassroomActivity = {
  __typename?: 'ClassroomActivity';
  activity: Activity;
  assignOnJoin: Scalars['Boolean']['output'];
  assignedStudentIds: Array<Scalars['ID']['output']>;
  classroom: Classroom;
  completed: Scalars['Boolean']['output'];
  dueDate?: Maybe<Scalars['DateTime']['output']>;
  editionId?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  locked: Scalars['Boolean']['output'];
  pinned: Scalars['Boolean']['output'];
  /** The visible sessions. */
  sessions: Array<ActivitySession>;
  /** One entry per visible session: the names shown on the projector. */
  studentNames: Array<StudentName>;
  unit?: Maybe<Unit>;
};

export type Concept = {
  __typename?: 'Concept';
  name: Scalars['String']['output'];
  uid: Scalars['String']['output'];
};

export type ConceptResult = {
  __typename?: 'ConceptResult';
  concept: Concept;
  metadata: Scalars['JSONObject']['output'];
  questionType: Scalars['String']['output'];
};

export type ConceptResultInput = {
  /** A visible session of this classroom activity. */
  activitySessionUid: Scalars['String']['input'];
  conceptUid: Scalars['String']['input'];
  /** Counts as the lesson's edition id when the input has none. */
  editionId?: InputMaybe<Scalars['String']['input']>;
  metadata: ConceptResultMetadataInput;
  questionType: Scalars['String']['input'];
};

export type ConceptResultMetadataInput = {
  answer?: InputMaybe<Scalars['String']['input']>;
  attemptNumber: Scalars['Int']['input'];
  correct: Scalars['Int']['input'];
  directions?: InputMaybe<Scalars['String']['input']>;
  /** Further keys, stored as given. */
  extra?: InputMaybe<Scalars['JSONObject']['input']>;
  prompt?: InputMaybe<Scalars['String']['input']>;
  questionNumber: Scalars['Int']['input'];
};

export type CreateActivityInput = {
  classificationId?: InputMaybe<Scalars['ID']['input']>;
  data?: InputMaybe<Scalars['JSONObject']['input']>;
  description?: InputMaybe<Scalars['String']['input']>;
  flags?: InputMaybe<Array<Scalars['String']['input']>>;
  followUpActivityId?: InputMaybe<Scalars['ID']['input']>;
  name: Scalars['String']['input'];
  supportingInfo?: InputMaybe<Scalars['String']['input']>;
  /** 22 URL-safe base64 characters are generated when left out. */
  uid?: InputMaybe<Scalars['String']['input']>;
};

export type DeleteActivityPayload = {
  __typename?: 'DeleteActivityPayload';
  id: Scalars['ID']['output'];
};

export type FinishLessonInput = {
  /** At most 10,000 (PAYLOAD_TOO_LARGE beyond). */
  conceptResults?: Array<ConceptResultInput>;
  editionId?: InputMaybe<Scalars['String']['input']>;
  /** Assign the activity's follow-up activity to the classroom. */
  followUp?: InputMaybe<Scalars['Boolean']['input']>;
};

export type FinishLessonPayload = {
  __typename?: 'FinishLessonPayload';
  classroomActivity: ClassroomActivity;
  followUpClassroomActivity?: Maybe<ClassroomActivity>;
  /** The follow-up activity's page, or the teacher's profile. */
  followUpUrl: Scalars['String']['output'];
};

export type LessonEvent = {
  __typename?: 'LessonEvent';
  /** When the change was committed. */
  at: Scalars['DateTime']['output'];
  classroomActivityId: Scalars['ID']['output'];
  completed: Scalars['Boolean']['output'];
  /** On FINISHED: the follow-up URL finishLesson returned; else null. */
  followUpUrl?: Maybe<Scalars['String']['output']>;
  kind: LessonEventKind;
  locked: Scalars['Boolean']['output'];
  pinned: Scalars['Boolean']['output'];
};

export type LessonEventKind =
  | 'FINISHED'
  | 'LAUNCHED'
  | 'LOCKED';

export type Milestone = {
  __typename?: 'Milestone';
  name: Scalars['String']['output'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Staff only. With no flags, an activity gets ["beta"]; with no uid, a generated one. */
  createActivity: Activity;
  /** Staff only. */
  deleteActivity: DeleteActivityPayload;
  /**
   * Ends a live lesson: finishes every session, saves the concept results, drops absent students'
   * sessions, locks the classroom activity and assigns the follow-up when asked. Safe to retry.
   * NOT_FOUND when unknown or hidden.
   */
  finishLesson: FinishLessonPayload;
  /**
   * Starts a live lesson: unlocks and pins it, unpins the classroom's other classroom activities and gives
   * each assigned student without a session an unstarted one. NOT_FOUND when unknown or hidden.
   */
  launchLesson: ClassroomActivity;
  /** Records that the signed-in user published a customized lesson edition. Idempotent. */
  publishEdition: PublishEditionPayload;
  /** Sets pinned = false and locked = true. NOT_FOUND when unknown or hidden. */
  unpinAndLock: ClassroomActivity;
  /** Staff only. Fields left out (or null) keep their value. */
  updateActivity: Activity;
};


export type MutationCreateActivityArgs = {
  input: CreateActivityInput;
};


export type MutationDeleteActivityArgs = {
  id: Scalars['ID']['input'];
};


export type MutationFinishLessonArgs = {
  id: Scalars['ID']['input'];
  input: FinishLessonInput;
};


export type MutationLaunchLessonArgs = {
  id: Scalars['ID']['input'];
};


export type MutationUnpinAndLockArgs = {
  id: Scalars['ID']['input'];
};


export type MutationUpdateActivityArgs = {
  id: Scalars['ID']['input'];
  input: UpdateActivityInput;
};

export type Objective = {
  __typename?: 'Objective';
  name: Scalars['String']['output'];
};

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
};

export type PublishEditionPayload = {
  __typename?: 'PublishEditionPayload';
  user: User;
};

export type Query = {
  __typename?: 'Query';
  /** Activities in id order, Relay-style. `flag` keeps activities having that flag among their flags. */
  activities: ActivityConnection;
  /** An activity by uid, else by numeric id; null when unknown. Anyone may read activities. */
  activity?: Maybe<Activity>;
  /** Every activity's uid and first flag (the lessons client's uids_and_flags). */
  activityFlags: Array<ActivityFlag>;
  /** Null when unknown or hidden. Only a teacher of its classroom may read it (UNAUTHENTICATED, FORBIDDEN). */
  classroomActivity?: Maybe<ClassroomActivity>;
  /** The signed-in user, or null. */
  viewer?: Maybe<User>;
};


export type QueryActivitiesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  flag?: InputMaybe<Scalars['String']['input']>;
};


export type QueryActivityArgs = {
  id: Scalars['ID']['input'];
};


export type QueryClassroomActivityArgs = {
  id: Scalars['ID']['input'];
};

export type StudentName = {
  __typename?: 'StudentName';
  activitySessionUid: Scalars['String']['output'];
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
   */
  lessonEvents: LessonEvent;
};


/**
 * Live lessons, over WebSocket (graphql-transport-ws) at the same /graphql URL. The token goes in the
 * connection_init payload as `{"authorization": "Bearer <token>"}`.
 */
export type SubscriptionLessonEventsArgs = {
  classroomActivityId: Scalars['ID']['input'];
};

export type Unit = {
  __typename?: 'Unit';
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

export type UpdateActivityInput = {
  classificationId?: InputMaybe<Scalars['ID']['input']>;
  data?: InputMaybe<Scalars['JSONObject']['input']>;
  description?: InputMaybe<Scalars['String']['input']>;
  flags?: InputMaybe<Array<Scalars['String']['input']>>;
  followUpActivityId?: InputMaybe<Scalars['ID']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
  supportingInfo?: InputMaybe<Scalars['String']['input']>;
  uid?: InputMaybe<Scalars['String']['input']>;
};

export type User = {
  __typename?: 'User';
  id: Scalars['ID']['output'];
  /** Only the user themself may read these (FORBIDDEN otherwise). */
  milestones: Array<Milestone>;
  name: Scalars['String']['output'];
  /** Only the user themself may read these (FORBIDDEN otherwise). */
  objectives: Array<Objective>;
  role: UserRole;
};

export type UserRole =
  | 'staff'
  | 'student'
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
  LessonEvent: ResolverTypeWrapper<LessonEvent>;
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
  LessonEvent: LessonEvent;
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

export type ActivityResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Activity'] = ResolversParentTypes['Activity']> = {
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

export type ActivityClassificationResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ActivityClassification'] = ResolversParentTypes['ActivityClassification']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  key?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ActivityConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ActivityConnection'] = ResolversParentTypes['ActivityConnection']> = {
  edges?: Resolver<Array<ResolversTypes['ActivityEdge']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type ActivityEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ActivityEdge'] = ResolversParentTypes['ActivityEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Activity'], ParentType, ContextType>;
};

export type ActivityFlagResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ActivityFlag'] = ResolversParentTypes['ActivityFlag']> = {
  flag?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  uid?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ActivitySessionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ActivitySession'] = ResolversParentTypes['ActivitySession']> = {
  completedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  conceptResults?: Resolver<Array<ResolversTypes['ConceptResult']>, ParentType, ContextType>;
  isFinalScore?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  percentage?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  state?: Resolver<ResolversTypes['ActivitySessionState'], ParentType, ContextType>;
  student?: Resolver<ResolversTypes['User'], ParentType, ContextType>;
  uid?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ActivitySessionStateResolvers = { FINISHED: 'finished', STARTED: 'started', UNSTARTED: 'unstarted' };

export type ClassroomResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Classroom'] = ResolversParentTypes['Classroom']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  teacher?: Resolver<Maybe<ResolversTypes['User']>, ParentType, ContextType>;
};

export type ClassroomActivityResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ClassroomActivity'] = ResolversParentTypes['ClassroomActivity']> = {
  activity?: Resolver<ResolversTypes['Activity'], ParentType, ContextType>;
  assignOnJoin?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  assignedStudentIds?: Resolver<Array<ResolversTypes['ID']>, ParentType, ContextType>;
  classroom?: Resolver<ResolversTypes['Classroom'], ParentType, ContextType>;
  completed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  dueDate?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  editionId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  locked?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  pinned?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  sessions?: Resolver<Array<ResolversTypes['ActivitySession']>, ParentType, ContextType>;
  studentNames?: Resolver<Array<ResolversTypes['StudentName']>, ParentType, ContextType>;
  unit?: Resolver<Maybe<ResolversTypes['Unit']>, ParentType, ContextType>;
};

export type ConceptResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Concept'] = ResolversParentTypes['Concept']> = {
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  uid?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ConceptResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ConceptResult'] = ResolversParentTypes['ConceptResult']> = {
  concept?: Resolver<ResolversTypes['Concept'], ParentType, ContextType>;
  metadata?: Resolver<ResolversTypes['JSONObject'], ParentType, ContextType>;
  questionType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type DeleteActivityPayloadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeleteActivityPayload'] = ResolversParentTypes['DeleteActivityPayload']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type FinishLessonPayloadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['FinishLessonPayload'] = ResolversParentTypes['FinishLessonPayload']> = {
  classroomActivity?: Resolver<ResolversTypes['ClassroomActivity'], ParentType, ContextType>;
  followUpClassroomActivity?: Resolver<Maybe<ResolversTypes['ClassroomActivity']>, ParentType, ContextType>;
  followUpUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export interface JsonObjectScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['JSONObject'], any> {
  name: 'JSONObject';
}

export type LessonEventResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['LessonEvent'] = ResolversParentTypes['LessonEvent']> = {
  at?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  classroomActivityId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  completed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  followUpUrl?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['LessonEventKind'], ParentType, ContextType>;
  locked?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  pinned?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type MilestoneResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Milestone'] = ResolversParentTypes['Milestone']> = {
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type MutationResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  createActivity?: Resolver<ResolversTypes['Activity'], ParentType, ContextType, RequireFields<MutationCreateActivityArgs, 'input'>>;
  deleteActivity?: Resolver<ResolversTypes['DeleteActivityPayload'], ParentType, ContextType, RequireFields<MutationDeleteActivityArgs, 'id'>>;
  finishLesson?: Resolver<ResolversTypes['FinishLessonPayload'], ParentType, ContextType, RequireFields<MutationFinishLessonArgs, 'id' | 'input'>>;
  launchLesson?: Resolver<ResolversTypes['ClassroomActivity'], ParentType, ContextType, RequireFields<MutationLaunchLessonArgs, 'id'>>;
  publishEdition?: Resolver<ResolversTypes['PublishEditionPayload'], ParentType, ContextType>;
  unpinAndLock?: Resolver<ResolversTypes['ClassroomActivity'], ParentType, ContextType, RequireFields<MutationUnpinAndLockArgs, 'id'>>;
  updateActivity?: Resolver<ResolversTypes['Activity'], ParentType, ContextType, RequireFields<MutationUpdateActivityArgs, 'id' | 'input'>>;
};

export type ObjectiveResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Objective'] = ResolversParentTypes['Objective']> = {
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type PageInfoResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type PublishEditionPayloadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PublishEditionPayload'] = ResolversParentTypes['PublishEditionPayload']> = {
  user?: Resolver<ResolversTypes['User'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  activities?: Resolver<ResolversTypes['ActivityConnection'], ParentType, ContextType, RequireFields<QueryActivitiesArgs, 'first'>>;
  activity?: Resolver<Maybe<ResolversTypes['Activity']>, ParentType, ContextType, RequireFields<QueryActivityArgs, 'id'>>;
  activityFlags?: Resolver<Array<ResolversTypes['ActivityFlag']>, ParentType, ContextType>;
  classroomActivity?: Resolver<Maybe<ResolversTypes['ClassroomActivity']>, ParentType, ContextType, RequireFields<QueryClassroomActivityArgs, 'id'>>;
  viewer?: Resolver<Maybe<ResolversTypes['User']>, ParentType, ContextType>;
};

export type StudentNameResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StudentName'] = ResolversParentTypes['StudentName']> = {
  activitySessionUid?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type SubscriptionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = {
  lessonEvents?: SubscriptionResolver<ResolversTypes['LessonEvent'], "lessonEvents", ParentType, ContextType, RequireFields<SubscriptionLessonEventsArgs, 'classroomActivityId'>>;
};

export type UnitResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Unit'] = ResolversParentTypes['Unit']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type UserResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['User'] = ResolversParentTypes['User']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  milestones?: Resolver<Array<ResolversTypes['Milestone']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  objectives?: Resolver<Array<ResolversTypes['Objective']>, ParentType, ContextType>;
  role?: Resolver<ResolversTypes['UserRole'], ParentType, ContextType>;
};

export type UserRoleResolvers = { STAFF: 'staff', STUDENT: 'student', TEACHER: 'teacher' };

export type Resolvers<ContextType = GraphQLContext> = {
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

