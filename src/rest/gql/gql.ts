/* eslint-disable */
import * as types from './graphql.ts';



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
    "\n  fragment LegacyActivity on Activity {\n    id\n    uid\n    name\n    description\n    flags\n    data\n    supportingInfo\n    followUpActivityId\n    classification {\n      id\n      key\n      name\n    }\n    createdAt\n    updatedAt\n  }\n": typeof types.LegacyActivityFragmentDoc,
    "\n      query UidsAndFlags {\n        activityFlags {\n          uid\n          flag\n        }\n      }\n    ": typeof types.UidsAndFlagsDocument,
    "\n      query Activity($id: ID!) {\n        activity(id: $id) {\n          ...LegacyActivity\n        }\n      }\n    ": typeof types.ActivityDocument,
    "\n      query FollowUpNameAndSupportingInfo($id: ID!) {\n        activity(id: $id) {\n          supportingInfo\n          followUpActivity {\n            name\n          }\n        }\n      }\n    ": typeof types.FollowUpNameAndSupportingInfoDocument,
    "\n      query SupportingInfo($id: ID!) {\n        activity(id: $id) {\n          supportingInfo\n        }\n      }\n    ": typeof types.SupportingInfoDocument,
    "\n      mutation CreateActivity($input: CreateActivityInput!) {\n        activity: createActivity(input: $input) {\n          ...LegacyActivity\n        }\n      }\n    ": typeof types.CreateActivityDocument,
    "\n      mutation UpdateActivity($id: ID!, $input: UpdateActivityInput!) {\n        activity: updateActivity(id: $id, input: $input) {\n          ...LegacyActivity\n        }\n      }\n    ": typeof types.UpdateActivityDocument,
    "\n      mutation DeleteActivity($id: ID!) {\n        deleteActivity(id: $id) {\n          id\n        }\n      }\n    ": typeof types.DeleteActivityDocument,
    "\n      mutation PublishEdition {\n        publishEdition {\n          user {\n            id\n          }\n        }\n      }\n    ": typeof types.PublishEditionDocument,
    "\n      query StudentNames($id: ID!) {\n        classroomActivity(id: $id) {\n          studentNames {\n            activitySessionUid\n            name\n          }\n        }\n      }\n    ": typeof types.StudentNamesDocument,
    "\n      query TeacherAndClassroomName($id: ID!) {\n        classroomActivity(id: $id) {\n          classroom {\n            name\n            teacher {\n              name\n            }\n          }\n        }\n      }\n    ": typeof types.TeacherAndClassroomNameDocument,
    "\n      mutation UnpinAndLock($id: ID!) {\n        unpinAndLock(id: $id) {\n          pinned\n        }\n      }\n    ": typeof types.UnpinAndLockDocument,
    "\n      mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {\n        finishLesson(id: $id, input: $input) {\n          followUpUrl\n        }\n      }\n    ": typeof types.FinishLessonDocument,
};
const documents: Documents = {
    "\n  fragment LegacyActivity on Activity {\n    id\n    uid\n    name\n    description\n    flags\n    data\n    supportingInfo\n    followUpActivityId\n    classification {\n      id\n      key\n      name\n    }\n    createdAt\n    updatedAt\n  }\n": types.LegacyActivityFragmentDoc,
    "\n      query UidsAndFlags {\n        activityFlags {\n          uid\n          flag\n        }\n      }\n    ": types.UidsAndFlagsDocument,
    "\n      query Activity($id: ID!) {\n        activity(id: $id) {\n          ...LegacyActivity\n        }\n      }\n    ": types.ActivityDocument,
    "\n      query FollowUpNameAndSupportingInfo($id: ID!) {\n        activity(id: $id) {\n          supportingInfo\n          followUpActivity {\n            name\n          }\n        }\n      }\n    ": types.FollowUpNameAndSupportingInfoDocument,
    "\n      query SupportingInfo($id: ID!) {\n        activity(id: $id) {\n          supportingInfo\n        }\n      }\n    ": types.SupportingInfoDocument,
    "\n      mutation CreateActivity($input: CreateActivityInput!) {\n        activity: createActivity(input: $input) {\n          ...LegacyActivity\n        }\n      }\n    ": types.CreateActivityDocument,
    "\n      mutation UpdateActivity($id: ID!, $input: UpdateActivityInput!) {\n        activity: updateActivity(id: $id, input: $input) {\n          ...LegacyActivity\n        }\n      }\n    ": types.UpdateActivityDocument,
    "\n      mutation DeleteActivity($id: ID!) {\n        deleteActivity(id: $id) {\n          id\n        }\n      }\n    ": types.DeleteActivityDocument,
    "\n      mutation PublishEdition {\n        publishEdition {\n          user {\n            id\n          }\n        }\n      }\n    ": types.PublishEditionDocument,
    "\n      query StudentNames($id: ID!) {\n        classroomActivity(id: $id) {\n          studentNames {\n            activitySessionUid\n            name\n          }\n        }\n      }\n    ": types.StudentNamesDocument,
    "\n      query TeacherAndClassroomName($id: ID!) {\n        classroomActivity(id: $id) {\n          classroom {\n            name\n            teacher {\n              name\n            }\n          }\n        }\n      }\n    ": types.TeacherAndClassroomNameDocument,
    "\n      mutation UnpinAndLock($id: ID!) {\n        unpinAndLock(id: $id) {\n          pinned\n        }\n      }\n    ": types.UnpinAndLockDocument,
    "\n      mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {\n        finishLesson(id: $id, input: $input) {\n          followUpUrl\n        }\n      }\n    ": types.FinishLessonDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment LegacyActivity on Activity {\n    id\n    uid\n    name\n    description\n    flags\n    data\n    supportingInfo\n    followUpActivityId\n    classification {\n      id\n      key\n      name\n    }\n    createdAt\n    updatedAt\n  }\n"): typeof import('./graphql.ts').LegacyActivityFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query UidsAndFlags {\n        activityFlags {\n          uid\n          flag\n        }\n      }\n    "): typeof import('./graphql.ts').UidsAndFlagsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Activity($id: ID!) {\n        activity(id: $id) {\n          ...LegacyActivity\n        }\n      }\n    "): typeof import('./graphql.ts').ActivityDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query FollowUpNameAndSupportingInfo($id: ID!) {\n        activity(id: $id) {\n          supportingInfo\n          followUpActivity {\n            name\n          }\n        }\n      }\n    "): typeof import('./graphql.ts').FollowUpNameAndSupportingInfoDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query SupportingInfo($id: ID!) {\n        activity(id: $id) {\n          supportingInfo\n        }\n      }\n    "): typeof import('./graphql.ts').SupportingInfoDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation CreateActivity($input: CreateActivityInput!) {\n        activity: createActivity(input: $input) {\n          ...LegacyActivity\n        }\n      }\n    "): typeof import('./graphql.ts').CreateActivityDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation UpdateActivity($id: ID!, $input: UpdateActivityInput!) {\n        activity: updateActivity(id: $id, input: $input) {\n          ...LegacyActivity\n        }\n      }\n    "): typeof import('./graphql.ts').UpdateActivityDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation DeleteActivity($id: ID!) {\n        deleteActivity(id: $id) {\n          id\n        }\n      }\n    "): typeof import('./graphql.ts').DeleteActivityDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation PublishEdition {\n        publishEdition {\n          user {\n            id\n          }\n        }\n      }\n    "): typeof import('./graphql.ts').PublishEditionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query StudentNames($id: ID!) {\n        classroomActivity(id: $id) {\n          studentNames {\n            activitySessionUid\n            name\n          }\n        }\n      }\n    "): typeof import('./graphql.ts').StudentNamesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query TeacherAndClassroomName($id: ID!) {\n        classroomActivity(id: $id) {\n          classroom {\n            name\n            teacher {\n              name\n            }\n          }\n        }\n      }\n    "): typeof import('./graphql.ts').TeacherAndClassroomNameDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation UnpinAndLock($id: ID!) {\n        unpinAndLock(id: $id) {\n          pinned\n        }\n      }\n    "): typeof import('./graphql.ts').UnpinAndLockDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {\n        finishLesson(id: $id, input: $input) {\n          followUpUrl\n        }\n      }\n    "): typeof import('./graphql.ts').FinishLessonDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
