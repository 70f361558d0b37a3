// The operations the playground opens with: one tab each, written for the demo data (src/demo/seed.ts)
// so that they run as they are. tests/integration/docs/playground.test.ts runs every one of them against that data.

export type ExampleTab = { name: string; query: string; variables?: Record<string, unknown>; needsToken: boolean };

export const exampleTabs: ExampleTab[] = [
  {
    name: 'activity',
    needsToken: false,
    query: `# An activity by uid (or numeric id). Anyone may read activities.
query Activity($id: ID!) {
  activity(id: $id) {
    id uid name description flags flag supportingInfo
    classification { key name }
    followUpActivity { uid name }
  }
}`,
    variables: { id: '-KsL6d9-ij4oM7qMUZFm' },
  },
  {
    name: 'activities',
    needsToken: false,
    query: `# Activities in id order, Relay-style: pass pageInfo.endCursor as $after for the next page.
query Activities($first: Int, $after: String, $flag: String) {
  activities(first: $first, after: $after, flag: $flag) {
    totalCount
    edges { cursor node { id uid name flags } }
    pageInfo { hasNextPage endCursor }
  }
}`,
    variables: { first: 2, after: null, flag: null },
  },
  {
    name: 'classroomActivity',
    needsToken: true,
    query: `# The lesson screen's query. Teachers of the classroom only: put the demo teacher's token in Headers.
query ClassroomActivity($id: ID!) {
  classroomActivity(id: $id) {
    id locked pinned completed editionId
    activity { name }
    classroom { name teacher { name } }
    unit { name }
    studentNames { activitySessionUid name }
    sessions { uid state student { name } conceptResults { concept { uid name } questionType metadata } }
  }
}`,
    variables: { id: '100' },
  },
  {
    name: 'viewer',
    needsToken: true,
    query: `# Who the Authorization header signs in as (null without one).
query Viewer {
  viewer { id name role milestones { name } objectives { name } }
}`,
  },
  {
    name: 'lessonEvents',
    needsToken: true,
    query: `# Follows the demo lesson live, until you stop it: over WebSocket, or over Server-Sent Events
# (the WS/SSE button in the toolbar). Put the demo teacher's token in Headers and run it, then
# end the lesson: the finishLesson tab, or
# PUT /api/v1/classroom_activities/100/finish_lesson with the same header. Its FINISHED event,
# with the followUpUrl, appears here. A finish that changes nothing sends no event: on a lesson
# already finished, first run mutation { launchLesson(id: "100") { id } } in a new tab.
# Each event's id is a cursor: put one in "after" to replay what followed it first.
subscription LessonEvents($id: ID!, $after: ID) {
  lessonEvents(classroomActivityId: $id, after: $after) {
    id kind classroomActivityId locked pinned completed followUpUrl at
  }
}`,
    variables: { id: '100' },
  },
  {
    name: 'finishLesson',
    needsToken: true,
    query: `# Ends the demo lesson: saves a result for Ben's session, finishes the sessions, locks the
# classroom activity and assigns the follow-up. Safe to run again.
mutation FinishLesson($id: ID!, $input: FinishLessonInput!) {
  finishLesson(id: $id, input: $input) {
    followUpUrl
    classroomActivity { locked completed sessions { uid state } }
    followUpClassroomActivity { id activity { name } }
  }
}`,
    variables: {
      id: '100',
      input: {
        followUp: true,
        conceptResults: [
          {
            activitySessionUid: 'CzdnkJa649c3eZ-Ag8udAQ',
            conceptUid: 'X37oyfiNxSphA34npOb-Ig',
            questionType: 'lessons-slide',
            metadata: {
              correct: 1,
              attemptNumber: 1,
              questionNumber: 1,
              prompt: 'Combine the sentences.',
              answer: 'I like running, swimming and biking.',
            },
          },
        ],
      },
    },
  },
  {
    name: 'unpinAndLock',
    needsToken: true,
    query: `# Unpins and locks the demo classroom activity.
mutation UnpinAndLock($id: ID!) {
  unpinAndLock(id: $id) { id pinned locked }
}`,
    variables: { id: '100' },
  },
  {
    name: 'publishEdition',
    needsToken: true,
    query: `# Records that the signed-in teacher published a customized lesson (idempotent).
mutation PublishEdition {
  publishEdition { user { name milestones { name } objectives { name } } }
}`,
  },
];

/**
 * The header editor's text on the examples that need a teacher: the bearer token to replace with the one
 * `npm start` printed. The other examples (and new tabs) send no header: a token that is presented but
 * invalid is refused even where none is needed.
 */
export const tokenHeaders = `{
  "Authorization": "Bearer PASTE-THE-DEMO-TEACHER-TOKEN-HERE"
}`;
export const noHeaders = '{}';

export const headersFor = (tab: ExampleTab) => (tab.needsToken ? tokenHeaders : noHeaders);
