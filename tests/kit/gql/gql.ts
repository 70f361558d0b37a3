/* eslint-disable */
import * as types from './graphql.ts';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "fragment ActivityFields on Activity {\n  id uid name description flags flag data supportingInfo followUpActivityId\n  followUpActivity { id uid name }\n  classification { id key name }\n  createdAt updatedAt\n}": typeof types.ActivityFieldsFragmentDoc,
    "query Activity($id: ID!) { activity(id: $id) { ...ActivityFields } }": typeof types.ActivityDocument,
    "query ActivitiesPage($first: Int, $after: String, $flag: String) {\n  activities(first: $first, after: $after, flag: $flag) {\n    edges { cursor node { id uid } }\n    pageInfo { hasNextPage endCursor }\n    totalCount\n  }\n}": typeof types.ActivitiesPageDocument,
    "mutation CreateActivity($input: CreateActivityInput!) { createActivity(input: $input) { ...ActivityFields } }": typeof types.CreateActivityDocument,
    "mutation UpdateActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { ...ActivityFields } }": typeof types.UpdateActivityDocument,
    "mutation DeleteActivity($id: ID!) { deleteActivity(id: $id) { id } }": typeof types.DeleteActivityDocument,
    "query ActivityFlags { activityFlags { uid flag } }": typeof types.ActivityFlagsDocument,
    "query SchemaNames { __schema { mutationType { fields { name } } types { name } } }": typeof types.SchemaNamesDocument,
    "query ActivityLinks($first: Int) { activities(first: $first) { edges { node { followUpActivity { name } classification { name } } } } }": typeof types.ActivityLinksDocument,
    "query ClassroomActivityFull($id: ID!) {\n  classroomActivity(id: $id) {\n    id\n    activity { id uid name }\n    classroom { id name teacher { id name } }\n    unit { id name }\n    dueDate assignedStudentIds assignOnJoin locked pinned completed editionId\n    studentNames { activitySessionUid name }\n    sessions { uid state percentage completedAt isFinalScore student { id name } conceptResults { concept { uid name } questionType metadata } }\n  }\n}": typeof types.ClassroomActivityFullDocument,
    "query ClassroomActivityFlags($id: ID!) { classroomActivity(id: $id) { id locked pinned completed } }": typeof types.ClassroomActivityFlagsDocument,
    "mutation UnpinAndLockFlags($id: ID!) { unpinAndLock(id: $id) { id locked pinned completed } }": typeof types.UnpinAndLockFlagsDocument,
    "query LessonStudentNames($id: ID!) { classroomActivity(id: $id) { studentNames { activitySessionUid name } sessions { uid } } }": typeof types.LessonStudentNamesDocument,
    "query FollowUpClassroom($id: ID!) { classroomActivity(id: $id) { classroom { name teacher { name } } } }": typeof types.FollowUpClassroomDocument,
    "query LessonThroughFragments($id: ID!) {\n      lesson: classroomActivity(id: $id) { ...StatementsLesson }\n    }\n    fragment StatementsLesson on ClassroomActivity { ... on ClassroomActivity { people: sessions { ...StatementsSession } } classroom { name } }\n    fragment StatementsSession on ActivitySession { uid student { name } results: conceptResults { concept { uid } } }": typeof types.LessonThroughFragmentsDocument,
    "query ClassroomActivityWithActivity($id: ID!) { classroomActivity(id: $id) { activity { uid } sessions { uid } } }": typeof types.ClassroomActivityWithActivityDocument,
    "mutation LaunchCounted($id: ID!) { launchLesson(id: $id) { id lessonEventCursor } }": typeof types.LaunchCountedDocument,
    "mutation LockCounted($id: ID!) { unpinAndLock(id: $id) { id lessonEventCursor } }": typeof types.LockCountedDocument,
    "query Typename { __typename }": typeof types.TypenameDocument,
    "query FirstActivities { activities(first: 20) { totalCount edges { node { id } } } }": typeof types.FirstActivitiesDocument,
    "query JwtViewer { viewer { id name role } }": typeof types.JwtViewerDocument,
    "mutation CreateExtraActivity { createActivity(input: { name: \"Extra\" }) { id } }": typeof types.CreateExtraActivityDocument,
    "mutation LaunchOverHttp($id: ID!) { launchLesson(id: $id) { id } }": typeof types.LaunchOverHttpDocument,
    "mutation LockOverHttp($id: ID!) { unpinAndLock(id: $id) { id } }": typeof types.LockOverHttpDocument,
    "mutation Launch($id: ID!) { launchLesson(id: $id) { id locked pinned sessions { student { id } state } } }": typeof types.LaunchDocument,
    "mutation Lock($id: ID!) { unpinAndLock(id: $id) { id } }": typeof types.LockDocument,
    "\n  subscription Resume($id: ID!, $after: ID) {\n    lessonEvents(classroomActivityId: $id, after: $after) { id kind locked pinned completed }\n  }": typeof types.ResumeDocument,
    "query Cursor($id: ID!) { classroomActivity(id: $id) { lessonEventCursor locked } }": typeof types.CursorDocument,
    "mutation LockForCursor($id: ID!) { unpinAndLock(id: $id) { lessonEventCursor } }": typeof types.LockForCursorDocument,
    "mutation LaunchForCursor($id: ID!) { launchLesson(id: $id) { lessonEventCursor } }": typeof types.LaunchForCursorDocument,
    "mutation PublishEditionUser { publishEdition { user { id name } } }": typeof types.PublishEditionUserDocument,
    "mutation CacheRenameActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { name } }": typeof types.CacheRenameActivityDocument,
    "mutation CacheLock($id: ID!) { unpinAndLock(id: $id) { locked } }": typeof types.CacheLockDocument,
    "mutation CacheCreateActivity($input: CreateActivityInput!) { createActivity(input: $input) { id } }": typeof types.CacheCreateActivityDocument,
    "mutation CacheUpdateActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { id } }": typeof types.CacheUpdateActivityDocument,
    "mutation CacheDeleteActivity($id: ID!) { deleteActivity(id: $id) { id } }": typeof types.CacheDeleteActivityDocument,
    "query ClassroomAndNames($id: ID!) { classroomActivity(id: $id) { id classroom { name } studentNames { name } } }": typeof types.ClassroomAndNamesDocument,
    "query ViewerAchievementsById { viewer { id milestones { name } objectives { name } } }": typeof types.ViewerAchievementsByIdDocument,
    "query ActivityUid($id: ID!) { activity(id: $id) { uid } }": typeof types.ActivityUidDocument,
    "mutation CreateActivityX { createActivity(input: { name: \"x\" }) { id } }": typeof types.CreateActivityXDocument,
    "query Viewer { viewer { id name role milestones { name } objectives { name } } }": typeof types.ViewerDocument,
    "mutation PublishEdition { publishEdition { user { id } } }": typeof types.PublishEditionDocument,
    "query ViewerRole { viewer { id role } }": typeof types.ViewerRoleDocument,
    "query ViewerId { viewer { id } }": typeof types.ViewerIdDocument,
    "query TeacherMilestones($id: ID!) { classroomActivity(id: $id) { classroom { teacher { id name milestones { name } } } } }": typeof types.TeacherMilestonesDocument,
    "query TeacherObjectives($id: ID!) { classroomActivity(id: $id) { classroom { teacher { id objectives { name } } } } }": typeof types.TeacherObjectivesDocument,
    "query StudentMilestones($id: ID!) { classroomActivity(id: $id) { sessions { student { name milestones { name } } } } }": typeof types.StudentMilestonesDocument,
    "\n  mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {\n    finishLesson(id: $id, input: $input) {\n      followUpUrl\n      classroomActivity { id locked pinned completed editionId }\n      followUpClassroomActivity {\n        id locked pinned completed assignedStudentIds assignOnJoin\n        activity { id } classroom { id } unit { id }\n      }\n    }\n  }\n": typeof types.FinishLessonDocument,
    "\n  mutation FinishLessonUrl($id: ID!, $input: FinishLessonInput!) {\n    finishLesson(id: $id, input: $input) { followUpUrl }\n  }\n": typeof types.FinishLessonUrlDocument,
    "query ViewerWith { viewer { id name role } }": typeof types.ViewerWithDocument,
    "query NestedClassroomActivity($id: ID!) {\n  classroomActivity(id: $id) {\n    classroom { teacher { name } }\n    unit { name }\n    studentNames { activitySessionUid name }\n    sessions { uid state student { name } conceptResults { concept { uid } questionType metadata } }\n  }\n}": typeof types.NestedClassroomActivityDocument,
    "\n  query ClassroomActivityState($id: ID!) {\n    classroomActivity(id: $id) {\n      locked pinned completed editionId\n      sessions { uid state percentage completedAt isFinalScore conceptResults { concept { uid } questionType metadata } }\n    }\n  }\n": typeof types.ClassroomActivityStateDocument,
    "query ViewerAchievements { viewer { milestones { name } objectives { name } } }": typeof types.ViewerAchievementsDocument,
    "\n  subscription Follow($id: ID!) {\n    lessonEvents(classroomActivityId: $id) { kind classroomActivityId locked pinned completed followUpUrl at }\n  }": typeof types.FollowDocument,
    "query ImportedClassroomActivity($id: ID!) {\n  classroomActivity(id: $id) {\n    id locked pinned assignedStudentIds assignOnJoin\n    activity { uid }\n    classroom { name teacher { name } }\n    unit { name }\n    studentNames { activitySessionUid name }\n    sessions { uid state student { name } conceptResults { concept { uid } questionType metadata } }\n  }\n}": typeof types.ImportedClassroomActivityDocument,
    "query ActivitiesCount { activities { totalCount } }": typeof types.ActivitiesCountDocument,
    "mutation CreateAfterImport { createActivity(input: { name: \"Made after the import\" }) { id flags } }": typeof types.CreateAfterImportDocument,
    "mutation CreateAfterSecondImport { createActivity(input: { name: \"Made after the second import\" }) { id } }": typeof types.CreateAfterSecondImportDocument,
    "query ActivitiesCountUpTo100 { activities(first: 100) { totalCount } }": typeof types.ActivitiesCountUpTo100Document,
    "query ViewerName { viewer { id name } }": typeof types.ViewerNameDocument,
    "mutation LaunchLesson($id: ID!) { launchLesson(id: $id) { id } }": typeof types.LaunchLessonDocument,
    "\n  subscription FollowAfter($id: ID!, $after: ID) { lessonEvents(classroomActivityId: $id, after: $after) { id kind } }": typeof types.FollowAfterDocument,
    "query CursorOfLesson($id: ID!) { classroomActivity(id: $id) { lessonEventCursor } }": typeof types.CursorOfLessonDocument,
    "mutation LockLesson($id: ID!) { unpinAndLock(id: $id) { id } }": typeof types.LockLessonDocument,
    "mutation LaunchTheLesson($id: ID!) { launchLesson(id: $id) { id } }": typeof types.LaunchTheLessonDocument,
};
const documents: Documents = {
    "fragment ActivityFields on Activity {\n  id uid name description flags flag data supportingInfo followUpActivityId\n  followUpActivity { id uid name }\n  classification { id key name }\n  createdAt updatedAt\n}": types.ActivityFieldsFragmentDoc,
    "query Activity($id: ID!) { activity(id: $id) { ...ActivityFields } }": types.ActivityDocument,
    "query ActivitiesPage($first: Int, $after: String, $flag: String) {\n  activities(first: $first, after: $after, flag: $flag) {\n    edges { cursor node { id uid } }\n    pageInfo { hasNextPage endCursor }\n    totalCount\n  }\n}": types.ActivitiesPageDocument,
    "mutation CreateActivity($input: CreateActivityInput!) { createActivity(input: $input) { ...ActivityFields } }": types.CreateActivityDocument,
    "mutation UpdateActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { ...ActivityFields } }": types.UpdateActivityDocument,
    "mutation DeleteActivity($id: ID!) { deleteActivity(id: $id) { id } }": types.DeleteActivityDocument,
    "query ActivityFlags { activityFlags { uid flag } }": types.ActivityFlagsDocument,
    "query SchemaNames { __schema { mutationType { fields { name } } types { name } } }": types.SchemaNamesDocument,
    "query ActivityLinks($first: Int) { activities(first: $first) { edges { node { followUpActivity { name } classification { name } } } } }": types.ActivityLinksDocument,
    "query ClassroomActivityFull($id: ID!) {\n  classroomActivity(id: $id) {\n    id\n    activity { id uid name }\n    classroom { id name teacher { id name } }\n    unit { id name }\n    dueDate assignedStudentIds assignOnJoin locked pinned completed editionId\n    studentNames { activitySessionUid name }\n    sessions { uid state percentage completedAt isFinalScore student { id name } conceptResults { concept { uid name } questionType metadata } }\n  }\n}": types.ClassroomActivityFullDocument,
    "query ClassroomActivityFlags($id: ID!) { classroomActivity(id: $id) { id locked pinned completed } }": types.ClassroomActivityFlagsDocument,
    "mutation UnpinAndLockFlags($id: ID!) { unpinAndLock(id: $id) { id locked pinned completed } }": types.UnpinAndLockFlagsDocument,
    "query LessonStudentNames($id: ID!) { classroomActivity(id: $id) { studentNames { activitySessionUid name } sessions { uid } } }": types.LessonStudentNamesDocument,
    "query FollowUpClassroom($id: ID!) { classroomActivity(id: $id) { classroom { name teacher { name } } } }": types.FollowUpClassroomDocument,
    "query LessonThroughFragments($id: ID!) {\n      lesson: classroomActivity(id: $id) { ...StatementsLesson }\n    }\n    fragment StatementsLesson on ClassroomActivity { ... on ClassroomActivity { people: sessions { ...StatementsSession } } classroom { name } }\n    fragment StatementsSession on ActivitySession { uid student { name } results: conceptResults { concept { uid } } }": types.LessonThroughFragmentsDocument,
    "query ClassroomActivityWithActivity($id: ID!) { classroomActivity(id: $id) { activity { uid } sessions { uid } } }": types.ClassroomActivityWithActivityDocument,
    "mutation LaunchCounted($id: ID!) { launchLesson(id: $id) { id lessonEventCursor } }": types.LaunchCountedDocument,
    "mutation LockCounted($id: ID!) { unpinAndLock(id: $id) { id lessonEventCursor } }": types.LockCountedDocument,
    "query Typename { __typename }": types.TypenameDocument,
    "query FirstActivities { activities(first: 20) { totalCount edges { node { id } } } }": types.FirstActivitiesDocument,
    "query JwtViewer { viewer { id name role } }": types.JwtViewerDocument,
    "mutation CreateExtraActivity { createActivity(input: { name: \"Extra\" }) { id } }": types.CreateExtraActivityDocument,
    "mutation LaunchOverHttp($id: ID!) { launchLesson(id: $id) { id } }": types.LaunchOverHttpDocument,
    "mutation LockOverHttp($id: ID!) { unpinAndLock(id: $id) { id } }": types.LockOverHttpDocument,
    "mutation Launch($id: ID!) { launchLesson(id: $id) { id locked pinned sessions { student { id } state } } }": types.LaunchDocument,
    "mutation Lock($id: ID!) { unpinAndLock(id: $id) { id } }": types.LockDocument,
    "\n  subscription Resume($id: ID!, $after: ID) {\n    lessonEvents(classroomActivityId: $id, after: $after) { id kind locked pinned completed }\n  }": types.ResumeDocument,
    "query Cursor($id: ID!) { classroomActivity(id: $id) { lessonEventCursor locked } }": types.CursorDocument,
    "mutation LockForCursor($id: ID!) { unpinAndLock(id: $id) { lessonEventCursor } }": types.LockForCursorDocument,
    "mutation LaunchForCursor($id: ID!) { launchLesson(id: $id) { lessonEventCursor } }": types.LaunchForCursorDocument,
    "mutation PublishEditionUser { publishEdition { user { id name } } }": types.PublishEditionUserDocument,
    "mutation CacheRenameActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { name } }": types.CacheRenameActivityDocument,
    "mutation CacheLock($id: ID!) { unpinAndLock(id: $id) { locked } }": types.CacheLockDocument,
    "mutation CacheCreateActivity($input: CreateActivityInput!) { createActivity(input: $input) { id } }": types.CacheCreateActivityDocument,
    "mutation CacheUpdateActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { id } }": types.CacheUpdateActivityDocument,
    "mutation CacheDeleteActivity($id: ID!) { deleteActivity(id: $id) { id } }": types.CacheDeleteActivityDocument,
    "query ClassroomAndNames($id: ID!) { classroomActivity(id: $id) { id classroom { name } studentNames { name } } }": types.ClassroomAndNamesDocument,
    "query ViewerAchievementsById { viewer { id milestones { name } objectives { name } } }": types.ViewerAchievementsByIdDocument,
    "query ActivityUid($id: ID!) { activity(id: $id) { uid } }": types.ActivityUidDocument,
    "mutation CreateActivityX { createActivity(input: { name: \"x\" }) { id } }": types.CreateActivityXDocument,
    "query Viewer { viewer { id name role milestones { name } objectives { name } } }": types.ViewerDocument,
    "mutation PublishEdition { publishEdition { user { id } } }": types.PublishEditionDocument,
    "query ViewerRole { viewer { id role } }": types.ViewerRoleDocument,
    "query ViewerId { viewer { id } }": types.ViewerIdDocument,
    "query TeacherMilestones($id: ID!) { classroomActivity(id: $id) { classroom { teacher { id name milestones { name } } } } }": types.TeacherMilestonesDocument,
    "query TeacherObjectives($id: ID!) { classroomActivity(id: $id) { classroom { teacher { id objectives { name } } } } }": types.TeacherObjectivesDocument,
    "query StudentMilestones($id: ID!) { classroomActivity(id: $id) { sessions { student { name milestones { name } } } } }": types.StudentMilestonesDocument,
    "\n  mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {\n    finishLesson(id: $id, input: $input) {\n      followUpUrl\n      classroomActivity { id locked pinned completed editionId }\n      followUpClassroomActivity {\n        id locked pinned completed assignedStudentIds assignOnJoin\n        activity { id } classroom { id } unit { id }\n      }\n    }\n  }\n": types.FinishLessonDocument,
    "\n  mutation FinishLessonUrl($id: ID!, $input: FinishLessonInput!) {\n    finishLesson(id: $id, input: $input) { followUpUrl }\n  }\n": types.FinishLessonUrlDocument,
    "query ViewerWith { viewer { id name role } }": types.ViewerWithDocument,
    "query NestedClassroomActivity($id: ID!) {\n  classroomActivity(id: $id) {\n    classroom { teacher { name } }\n    unit { name }\n    studentNames { activitySessionUid name }\n    sessions { uid state student { name } conceptResults { concept { uid } questionType metadata } }\n  }\n}": types.NestedClassroomActivityDocument,
    "\n  query ClassroomActivityState($id: ID!) {\n    classroomActivity(id: $id) {\n      locked pinned completed editionId\n      sessions { uid state percentage completedAt isFinalScore conceptResults { concept { uid } questionType metadata } }\n    }\n  }\n": types.ClassroomActivityStateDocument,
    "query ViewerAchievements { viewer { milestones { name } objectives { name } } }": types.ViewerAchievementsDocument,
    "\n  subscription Follow($id: ID!) {\n    lessonEvents(classroomActivityId: $id) { kind classroomActivityId locked pinned completed followUpUrl at }\n  }": types.FollowDocument,
    "query ImportedClassroomActivity($id: ID!) {\n  classroomActivity(id: $id) {\n    id locked pinned assignedStudentIds assignOnJoin\n    activity { uid }\n    classroom { name teacher { name } }\n    unit { name }\n    studentNames { activitySessionUid name }\n    sessions { uid state student { name } conceptResults { concept { uid } questionType metadata } }\n  }\n}": types.ImportedClassroomActivityDocument,
    "query ActivitiesCount { activities { totalCount } }": types.ActivitiesCountDocument,
    "mutation CreateAfterImport { createActivity(input: { name: \"Made after the import\" }) { id flags } }": types.CreateAfterImportDocument,
    "mutation CreateAfterSecondImport { createActivity(input: { name: \"Made after the second import\" }) { id } }": types.CreateAfterSecondImportDocument,
    "query ActivitiesCountUpTo100 { activities(first: 100) { totalCount } }": types.ActivitiesCountUpTo100Document,
    "query ViewerName { viewer { id name } }": types.ViewerNameDocument,
    "mutation LaunchLesson($id: ID!) { launchLesson(id: $id) { id } }": types.LaunchLessonDocument,
    "\n  subscription FollowAfter($id: ID!, $after: ID) { lessonEvents(classroomActivityId: $id, after: $after) { id kind } }": types.FollowAfterDocument,
    "query CursorOfLesson($id: ID!) { classroomActivity(id: $id) { lessonEventCursor } }": types.CursorOfLessonDocument,
    "mutation LockLesson($id: ID!) { unpinAndLock(id: $id) { id } }": types.LockLessonDocument,
    "mutation LaunchTheLesson($id: ID!) { launchLesson(id: $id) { id } }": types.LaunchTheLessonDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ActivityFields on Activity {\n  id uid name description flags flag data supportingInfo followUpActivityId\n  followUpActivity { id uid name }\n  classification { id key name }\n  createdAt updatedAt\n}"): (typeof documents)["fragment ActivityFields on Activity {\n  id uid name description flags flag data supportingInfo followUpActivityId\n  followUpActivity { id uid name }\n  classification { id key name }\n  createdAt updatedAt\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Activity($id: ID!) { activity(id: $id) { ...ActivityFields } }"): (typeof documents)["query Activity($id: ID!) { activity(id: $id) { ...ActivityFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ActivitiesPage($first: Int, $after: String, $flag: String) {\n  activities(first: $first, after: $after, flag: $flag) {\n    edges { cursor node { id uid } }\n    pageInfo { hasNextPage endCursor }\n    totalCount\n  }\n}"): (typeof documents)["query ActivitiesPage($first: Int, $after: String, $flag: String) {\n  activities(first: $first, after: $after, flag: $flag) {\n    edges { cursor node { id uid } }\n    pageInfo { hasNextPage endCursor }\n    totalCount\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateActivity($input: CreateActivityInput!) { createActivity(input: $input) { ...ActivityFields } }"): (typeof documents)["mutation CreateActivity($input: CreateActivityInput!) { createActivity(input: $input) { ...ActivityFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UpdateActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { ...ActivityFields } }"): (typeof documents)["mutation UpdateActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { ...ActivityFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteActivity($id: ID!) { deleteActivity(id: $id) { id } }"): (typeof documents)["mutation DeleteActivity($id: ID!) { deleteActivity(id: $id) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ActivityFlags { activityFlags { uid flag } }"): (typeof documents)["query ActivityFlags { activityFlags { uid flag } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query SchemaNames { __schema { mutationType { fields { name } } types { name } } }"): (typeof documents)["query SchemaNames { __schema { mutationType { fields { name } } types { name } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ActivityLinks($first: Int) { activities(first: $first) { edges { node { followUpActivity { name } classification { name } } } } }"): (typeof documents)["query ActivityLinks($first: Int) { activities(first: $first) { edges { node { followUpActivity { name } classification { name } } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ClassroomActivityFull($id: ID!) {\n  classroomActivity(id: $id) {\n    id\n    activity { id uid name }\n    classroom { id name teacher { id name } }\n    unit { id name }\n    dueDate assignedStudentIds assignOnJoin locked pinned completed editionId\n    studentNames { activitySessionUid name }\n    sessions { uid state percentage completedAt isFinalScore student { id name } conceptResults { concept { uid name } questionType metadata } }\n  }\n}"): (typeof documents)["query ClassroomActivityFull($id: ID!) {\n  classroomActivity(id: $id) {\n    id\n    activity { id uid name }\n    classroom { id name teacher { id name } }\n    unit { id name }\n    dueDate assignedStudentIds assignOnJoin locked pinned completed editionId\n    studentNames { activitySessionUid name }\n    sessions { uid state percentage completedAt isFinalScore student { id name } conceptResults { concept { uid name } questionType metadata } }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ClassroomActivityFlags($id: ID!) { classroomActivity(id: $id) { id locked pinned completed } }"): (typeof documents)["query ClassroomActivityFlags($id: ID!) { classroomActivity(id: $id) { id locked pinned completed } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UnpinAndLockFlags($id: ID!) { unpinAndLock(id: $id) { id locked pinned completed } }"): (typeof documents)["mutation UnpinAndLockFlags($id: ID!) { unpinAndLock(id: $id) { id locked pinned completed } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query LessonStudentNames($id: ID!) { classroomActivity(id: $id) { studentNames { activitySessionUid name } sessions { uid } } }"): (typeof documents)["query LessonStudentNames($id: ID!) { classroomActivity(id: $id) { studentNames { activitySessionUid name } sessions { uid } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query FollowUpClassroom($id: ID!) { classroomActivity(id: $id) { classroom { name teacher { name } } } }"): (typeof documents)["query FollowUpClassroom($id: ID!) { classroomActivity(id: $id) { classroom { name teacher { name } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query LessonThroughFragments($id: ID!) {\n      lesson: classroomActivity(id: $id) { ...StatementsLesson }\n    }\n    fragment StatementsLesson on ClassroomActivity { ... on ClassroomActivity { people: sessions { ...StatementsSession } } classroom { name } }\n    fragment StatementsSession on ActivitySession { uid student { name } results: conceptResults { concept { uid } } }"): (typeof documents)["query LessonThroughFragments($id: ID!) {\n      lesson: classroomActivity(id: $id) { ...StatementsLesson }\n    }\n    fragment StatementsLesson on ClassroomActivity { ... on ClassroomActivity { people: sessions { ...StatementsSession } } classroom { name } }\n    fragment StatementsSession on ActivitySession { uid student { name } results: conceptResults { concept { uid } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ClassroomActivityWithActivity($id: ID!) { classroomActivity(id: $id) { activity { uid } sessions { uid } } }"): (typeof documents)["query ClassroomActivityWithActivity($id: ID!) { classroomActivity(id: $id) { activity { uid } sessions { uid } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation LaunchCounted($id: ID!) { launchLesson(id: $id) { id lessonEventCursor } }"): (typeof documents)["mutation LaunchCounted($id: ID!) { launchLesson(id: $id) { id lessonEventCursor } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation LockCounted($id: ID!) { unpinAndLock(id: $id) { id lessonEventCursor } }"): (typeof documents)["mutation LockCounted($id: ID!) { unpinAndLock(id: $id) { id lessonEventCursor } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Typename { __typename }"): (typeof documents)["query Typename { __typename }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query FirstActivities { activities(first: 20) { totalCount edges { node { id } } } }"): (typeof documents)["query FirstActivities { activities(first: 20) { totalCount edges { node { id } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query JwtViewer { viewer { id name role } }"): (typeof documents)["query JwtViewer { viewer { id name role } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateExtraActivity { createActivity(input: { name: \"Extra\" }) { id } }"): (typeof documents)["mutation CreateExtraActivity { createActivity(input: { name: \"Extra\" }) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation LaunchOverHttp($id: ID!) { launchLesson(id: $id) { id } }"): (typeof documents)["mutation LaunchOverHttp($id: ID!) { launchLesson(id: $id) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation LockOverHttp($id: ID!) { unpinAndLock(id: $id) { id } }"): (typeof documents)["mutation LockOverHttp($id: ID!) { unpinAndLock(id: $id) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation Launch($id: ID!) { launchLesson(id: $id) { id locked pinned sessions { student { id } state } } }"): (typeof documents)["mutation Launch($id: ID!) { launchLesson(id: $id) { id locked pinned sessions { student { id } state } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation Lock($id: ID!) { unpinAndLock(id: $id) { id } }"): (typeof documents)["mutation Lock($id: ID!) { unpinAndLock(id: $id) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription Resume($id: ID!, $after: ID) {\n    lessonEvents(classroomActivityId: $id, after: $after) { id kind locked pinned completed }\n  }"): (typeof documents)["\n  subscription Resume($id: ID!, $after: ID) {\n    lessonEvents(classroomActivityId: $id, after: $after) { id kind locked pinned completed }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Cursor($id: ID!) { classroomActivity(id: $id) { lessonEventCursor locked } }"): (typeof documents)["query Cursor($id: ID!) { classroomActivity(id: $id) { lessonEventCursor locked } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation LockForCursor($id: ID!) { unpinAndLock(id: $id) { lessonEventCursor } }"): (typeof documents)["mutation LockForCursor($id: ID!) { unpinAndLock(id: $id) { lessonEventCursor } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation LaunchForCursor($id: ID!) { launchLesson(id: $id) { lessonEventCursor } }"): (typeof documents)["mutation LaunchForCursor($id: ID!) { launchLesson(id: $id) { lessonEventCursor } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation PublishEditionUser { publishEdition { user { id name } } }"): (typeof documents)["mutation PublishEditionUser { publishEdition { user { id name } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CacheRenameActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { name } }"): (typeof documents)["mutation CacheRenameActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { name } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CacheLock($id: ID!) { unpinAndLock(id: $id) { locked } }"): (typeof documents)["mutation CacheLock($id: ID!) { unpinAndLock(id: $id) { locked } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CacheCreateActivity($input: CreateActivityInput!) { createActivity(input: $input) { id } }"): (typeof documents)["mutation CacheCreateActivity($input: CreateActivityInput!) { createActivity(input: $input) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CacheUpdateActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { id } }"): (typeof documents)["mutation CacheUpdateActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CacheDeleteActivity($id: ID!) { deleteActivity(id: $id) { id } }"): (typeof documents)["mutation CacheDeleteActivity($id: ID!) { deleteActivity(id: $id) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ClassroomAndNames($id: ID!) { classroomActivity(id: $id) { id classroom { name } studentNames { name } } }"): (typeof documents)["query ClassroomAndNames($id: ID!) { classroomActivity(id: $id) { id classroom { name } studentNames { name } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ViewerAchievementsById { viewer { id milestones { name } objectives { name } } }"): (typeof documents)["query ViewerAchievementsById { viewer { id milestones { name } objectives { name } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ActivityUid($id: ID!) { activity(id: $id) { uid } }"): (typeof documents)["query ActivityUid($id: ID!) { activity(id: $id) { uid } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateActivityX { createActivity(input: { name: \"x\" }) { id } }"): (typeof documents)["mutation CreateActivityX { createActivity(input: { name: \"x\" }) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Viewer { viewer { id name role milestones { name } objectives { name } } }"): (typeof documents)["query Viewer { viewer { id name role milestones { name } objectives { name } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation PublishEdition { publishEdition { user { id } } }"): (typeof documents)["mutation PublishEdition { publishEdition { user { id } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ViewerRole { viewer { id role } }"): (typeof documents)["query ViewerRole { viewer { id role } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ViewerId { viewer { id } }"): (typeof documents)["query ViewerId { viewer { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query TeacherMilestones($id: ID!) { classroomActivity(id: $id) { classroom { teacher { id name milestones { name } } } } }"): (typeof documents)["query TeacherMilestones($id: ID!) { classroomActivity(id: $id) { classroom { teacher { id name milestones { name } } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query TeacherObjectives($id: ID!) { classroomActivity(id: $id) { classroom { teacher { id objectives { name } } } } }"): (typeof documents)["query TeacherObjectives($id: ID!) { classroomActivity(id: $id) { classroom { teacher { id objectives { name } } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query StudentMilestones($id: ID!) { classroomActivity(id: $id) { sessions { student { name milestones { name } } } } }"): (typeof documents)["query StudentMilestones($id: ID!) { classroomActivity(id: $id) { sessions { student { name milestones { name } } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {\n    finishLesson(id: $id, input: $input) {\n      followUpUrl\n      classroomActivity { id locked pinned completed editionId }\n      followUpClassroomActivity {\n        id locked pinned completed assignedStudentIds assignOnJoin\n        activity { id } classroom { id } unit { id }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {\n    finishLesson(id: $id, input: $input) {\n      followUpUrl\n      classroomActivity { id locked pinned completed editionId }\n      followUpClassroomActivity {\n        id locked pinned completed assignedStudentIds assignOnJoin\n        activity { id } classroom { id } unit { id }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FinishLessonUrl($id: ID!, $input: FinishLessonInput!) {\n    finishLesson(id: $id, input: $input) { followUpUrl }\n  }\n"): (typeof documents)["\n  mutation FinishLessonUrl($id: ID!, $input: FinishLessonInput!) {\n    finishLesson(id: $id, input: $input) { followUpUrl }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ViewerWith { viewer { id name role } }"): (typeof documents)["query ViewerWith { viewer { id name role } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query NestedClassroomActivity($id: ID!) {\n  classroomActivity(id: $id) {\n    classroom { teacher { name } }\n    unit { name }\n    studentNames { activitySessionUid name }\n    sessions { uid state student { name } conceptResults { concept { uid } questionType metadata } }\n  }\n}"): (typeof documents)["query NestedClassroomActivity($id: ID!) {\n  classroomActivity(id: $id) {\n    classroom { teacher { name } }\n    unit { name }\n    studentNames { activitySessionUid name }\n    sessions { uid state student { name } conceptResults { concept { uid } questionType metadata } }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClassroomActivityState($id: ID!) {\n    classroomActivity(id: $id) {\n      locked pinned completed editionId\n      sessions { uid state percentage completedAt isFinalScore conceptResults { concept { uid } questionType metadata } }\n    }\n  }\n"): (typeof documents)["\n  query ClassroomActivityState($id: ID!) {\n    classroomActivity(id: $id) {\n      locked pinned completed editionId\n      sessions { uid state percentage completedAt isFinalScore conceptResults { concept { uid } questionType metadata } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ViewerAchievements { viewer { milestones { name } objectives { name } } }"): (typeof documents)["query ViewerAchievements { viewer { milestones { name } objectives { name } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription Follow($id: ID!) {\n    lessonEvents(classroomActivityId: $id) { kind classroomActivityId locked pinned completed followUpUrl at }\n  }"): (typeof documents)["\n  subscription Follow($id: ID!) {\n    lessonEvents(classroomActivityId: $id) { kind classroomActivityId locked pinned completed followUpUrl at }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ImportedClassroomActivity($id: ID!) {\n  classroomActivity(id: $id) {\n    id locked pinned assignedStudentIds assignOnJoin\n    activity { uid }\n    classroom { name teacher { name } }\n    unit { name }\n    studentNames { activitySessionUid name }\n    sessions { uid state student { name } conceptResults { concept { uid } questionType metadata } }\n  }\n}"): (typeof documents)["query ImportedClassroomActivity($id: ID!) {\n  classroomActivity(id: $id) {\n    id locked pinned assignedStudentIds assignOnJoin\n    activity { uid }\n    classroom { name teacher { name } }\n    unit { name }\n    studentNames { activitySessionUid name }\n    sessions { uid state student { name } conceptResults { concept { uid } questionType metadata } }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ActivitiesCount { activities { totalCount } }"): (typeof documents)["query ActivitiesCount { activities { totalCount } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateAfterImport { createActivity(input: { name: \"Made after the import\" }) { id flags } }"): (typeof documents)["mutation CreateAfterImport { createActivity(input: { name: \"Made after the import\" }) { id flags } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateAfterSecondImport { createActivity(input: { name: \"Made after the second import\" }) { id } }"): (typeof documents)["mutation CreateAfterSecondImport { createActivity(input: { name: \"Made after the second import\" }) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ActivitiesCountUpTo100 { activities(first: 100) { totalCount } }"): (typeof documents)["query ActivitiesCountUpTo100 { activities(first: 100) { totalCount } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ViewerName { viewer { id name } }"): (typeof documents)["query ViewerName { viewer { id name } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation LaunchLesson($id: ID!) { launchLesson(id: $id) { id } }"): (typeof documents)["mutation LaunchLesson($id: ID!) { launchLesson(id: $id) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription FollowAfter($id: ID!, $after: ID) { lessonEvents(classroomActivityId: $id, after: $after) { id kind } }"): (typeof documents)["\n  subscription FollowAfter($id: ID!, $after: ID) { lessonEvents(classroomActivityId: $id, after: $after) { id kind } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query CursorOfLesson($id: ID!) { classroomActivity(id: $id) { lessonEventCursor } }"): (typeof documents)["query CursorOfLesson($id: ID!) { classroomActivity(id: $id) { lessonEventCursor } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation LockLesson($id: ID!) { unpinAndLock(id: $id) { id } }"): (typeof documents)["mutation LockLesson($id: ID!) { unpinAndLock(id: $id) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation LaunchTheLesson($id: ID!) { launchLesson(id: $id) { id } }"): (typeof documents)["mutation LaunchTheLesson($id: ID!) { launchLesson(id: $id) { id } }"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;