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
    "mutation Launch($id: ID!) { launchLesson(id: $id) { id locked pinned sessions { student { id } state } } }": typeof types.LaunchDocument,
    "mutation Lock($id: ID!) { unpinAndLock(id: $id) { id } }": typeof types.LockDocument,
    "mutation CreateActivityX { createActivity(input: { name: \"x\" }) { id } }": typeof types.CreateActivityXDocument,
    "\n  mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {\n    finishLesson(id: $id, input: $input) {\n      followUpUrl\n      classroomActivity { id locked pinned completed editionId }\n      followUpClassroomActivity {\n        id locked pinned completed assignedStudentIds assignOnJoin\n        activity { id } classroom { id } unit { id }\n      }\n    }\n  }\n": typeof types.FinishLessonDocument,
    "\n  mutation FinishLessonUrl($id: ID!, $input: FinishLessonInput!) {\n    finishLesson(id: $id, input: $input) { followUpUrl }\n  }\n": typeof types.FinishLessonUrlDocument,
    "query ViewerWith { viewer { id name role } }": typeof types.ViewerWithDocument,
    "query NestedClassroomActivity($id: ID!) {\n  classroomActivity(id: $id) {\n    classroom { teacher { name } }\n    unit { name }\n    studentNames { activitySessionUid name }\n    sessions { uid state student { name } conceptResults { concept { uid } questionType metadata } }\n  }\n}": typeof types.NestedClassroomActivityDocument,
    "\n  query ClassroomActivityState($id: ID!) {\n    classroomActivity(id: $id) {\n      locked pinned completed editionId\n      sessions { uid state percentage completedAt isFinalScore conceptResults { concept { uid } questionType metadata } }\n    }\n  }\n": typeof types.ClassroomActivityStateDocument,
    "query ViewerAchievements { viewer { milestones { name } objectives { name } } }": typeof types.ViewerAchievementsDocument,
    "\n  subscription Follow($id: ID!) {\n    lessonEvents(classroomActivityId: $id) { kind classroomActivityId locked pinned completed followUpUrl at }\n  }": typeof types.FollowDocument,
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
    "mutation Launch($id: ID!) { launchLesson(id: $id) { id locked pinned sessions { student { id } state } } }": types.LaunchDocument,
    "mutation Lock($id: ID!) { unpinAndLock(id: $id) { id } }": types.LockDocument,
    "mutation CreateActivityX { createActivity(input: { name: \"x\" }) { id } }": types.CreateActivityXDocument,
    "\n  mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {\n    finishLesson(id: $id, input: $input) {\n      followUpUrl\n      classroomActivity { id locked pinned completed editionId }\n      followUpClassroomActivity {\n        id locked pinned completed assignedStudentIds assignOnJoin\n        activity { id } classroom { id } unit { id }\n      }\n    }\n  }\n": types.FinishLessonDocument,
    "\n  mutation FinishLessonUrl($id: ID!, $input: FinishLessonInput!) {\n    finishLesson(id: $id, input: $input) { followUpUrl }\n  }\n": types.FinishLessonUrlDocument,
    "query ViewerWith { viewer { id name role } }": types.ViewerWithDocument,
    "query NestedClassroomActivity($id: ID!) {\n  classroomActivity(id: $id) {\n    classroom { teacher { name } }\n    unit { name }\n    studentNames { activitySessionUid name }\n    sessions { uid state student { name } conceptResults { concept { uid } questionType metadata } }\n  }\n}": types.NestedClassroomActivityDocument,
    "\n  query ClassroomActivityState($id: ID!) {\n    classroomActivity(id: $id) {\n      locked pinned completed editionId\n      sessions { uid state percentage completedAt isFinalScore conceptResults { concept { uid } questionType metadata } }\n    }\n  }\n": types.ClassroomActivityStateDocument,
    "query ViewerAchievements { viewer { milestones { name } objectives { name } } }": types.ViewerAchievementsDocument,
    "\n  subscription Follow($id: ID!) {\n    lessonEvents(classroomActivityId: $id) { kind classroomActivityId locked pinned completed followUpUrl at }\n  }": types.FollowDocument,
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
export function graphql(source: "mutation Launch($id: ID!) { launchLesson(id: $id) { id locked pinned sessions { student { id } state } } }"): (typeof documents)["mutation Launch($id: ID!) { launchLesson(id: $id) { id locked pinned sessions { student { id } state } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation Lock($id: ID!) { unpinAndLock(id: $id) { id } }"): (typeof documents)["mutation Lock($id: ID!) { unpinAndLock(id: $id) { id } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateActivityX { createActivity(input: { name: \"x\" }) { id } }"): (typeof documents)["mutation CreateActivityX { createActivity(input: { name: \"x\" }) { id } }"];
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

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;