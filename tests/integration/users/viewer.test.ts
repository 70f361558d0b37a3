import { describe, expect, it } from 'vitest';
import { ids, names, tokens } from '../../kit/fixture.ts';
import { gatewayForTests } from '../../kit/gateway.ts';
import { errorCodes as codes } from '../../kit/graphql.ts';
import { graphql } from '../../kit/gql/index.ts';

// The users module through GraphQL (docs/contract.md, GraphQL and Who may do what): Query.viewer, and who
// may read a user's milestones and objectives.

const gateway = gatewayForTests();

const VIEWER = graphql(`query Viewer { viewer { id name role milestones { name } objectives { name } } }`);
const PUBLISH_EDITION = graphql(`mutation PublishEdition { publishEdition { user { id } } }`);
const VIEWER_ROLE = graphql(`query ViewerRole { viewer { id role } }`);

describe('Query.viewer', () => {
  it('is null for an anonymous caller', async () => {
    const answer = await gateway.graphql(VIEWER);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ viewer: null });
  });

  it('is the signed-in user, with their role', async () => {
    expect((await gateway.graphql(VIEWER, {}, tokens.owner)).data).toEqual({
      viewer: { id: String(ids.owner), name: names.owner, role: 'TEACHER', milestones: [], objectives: [] },
    });
    expect((await gateway.graphql(VIEWER_ROLE, {}, tokens.student)).data).toEqual({
      viewer: { id: String(ids.students[0]), role: 'STUDENT' },
    });
    expect((await gateway.graphql(VIEWER_ROLE, {}, tokens.staff)).data).toEqual({
      viewer: { id: String(ids.staff), role: 'STAFF' },
    });
  });

  it('answers UNAUTHENTICATED for a wrong token, never treating it as anonymous', async () => {
    for (const token of ['wrong-token-0123456789abcdef', `${tokens.owner}x`, tokens.owner.toUpperCase()]) {
      const answer = await gateway.graphql(graphql(`query ViewerId { viewer { id } }`), {}, token);
      expect(codes(answer), token).toEqual(['UNAUTHENTICATED']);
      expect(answer.data, token).toEqual({ viewer: null });
    }
  });

  it("lists the viewer's milestones and objectives once they have some", async () => {
    const published = await gateway.graphql(PUBLISH_EDITION, {}, tokens.owner);
    expect(published.errors).toBeUndefined();
    const answer = await gateway.graphql(VIEWER, {}, tokens.owner);
    expect(answer.data!.viewer).toMatchObject({
      milestones: [{ name: 'Publish Customized Lesson' }],
      objectives: [{ name: 'Publish Customized Lesson' }],
    });
    // Someone else's are not theirs.
    expect((await gateway.graphql(VIEWER, {}, tokens.coteacher)).data!.viewer).toMatchObject({ milestones: [], objectives: [] });
  });
});

describe("another user's milestones and objectives", () => {
  const TEACHER_MILESTONES = graphql(
    `query TeacherMilestones($id: ID!) { classroomActivity(id: $id) { classroom { teacher { id name milestones { name } } } } }`,
  );
  const TEACHER_OBJECTIVES = graphql(
    `query TeacherObjectives($id: ID!) { classroomActivity(id: $id) { classroom { teacher { id objectives { name } } } } }`,
  );
  const STUDENT_MILESTONES = graphql(
    `query StudentMilestones($id: ID!) { classroomActivity(id: $id) { sessions { student { name milestones { name } } } } }`,
  );

  it('are FORBIDDEN to everyone but the user themself', async () => {
    await gateway.graphql(PUBLISH_EDITION, {}, tokens.owner);
    const id = String(ids.classroomActivity);

    // The co-teacher reaches the owner through the classroom.
    const milestones = await gateway.graphql(TEACHER_MILESTONES, { id }, tokens.coteacher);
    expect(codes(milestones)).toEqual(['FORBIDDEN']);
    expect(milestones.errors![0]!.path).toEqual(['classroomActivity', 'classroom', 'teacher', 'milestones']);
    const objectives = await gateway.graphql(TEACHER_OBJECTIVES, { id }, tokens.coteacher);
    expect(codes(objectives)).toEqual(['FORBIDDEN']);

    // The owner reaches their students through the sessions.
    const students = await gateway.graphql(STUDENT_MILESTONES, { id }, tokens.owner);
    expect(new Set(codes(students))).toEqual(new Set(['FORBIDDEN']));

    // The owner reading their own milestones the same way is fine.
    const own = await gateway.graphql(TEACHER_MILESTONES, { id }, tokens.owner);
    expect(own.errors).toBeUndefined();
    expect(own.data!.classroomActivity!.classroom.teacher).toEqual({
      id: String(ids.owner),
      name: names.owner,
      milestones: [{ name: 'Publish Customized Lesson' }],
    });
  });
});
