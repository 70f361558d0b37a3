import { Kind, parse, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { planOncePerOperation, selectionOf } from '../../src/modules/look-ahead.ts';
import { statementNameOf, viewPlanOf, type ViewPlan } from '../../src/modules/classroom-activities/view-plan.ts';
import { prepareView } from '../../src/modules/classroom-activities/view-statement.ts';

// What a view of a classroom activity brings, from an operation's selection (src/modules/classroom-activities/
// view-plan.ts), and the statement each plan gets (view-statement.ts): only what is selected, through fragments and aliases.

/** The `classroomActivity` field of a document's first operation, as a resolver's info gives it. */
function infoOf(source: string) {
  const document = parse(source);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = Object.fromEntries(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const fieldNodes = operation.selectionSet.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD);
  return { fieldNodes, fragments };
}
const planOf = (source: string): ViewPlan => {
  const info = infoOf(source);
  return viewPlanOf(selectionOf(info.fieldNodes, info.fragments), info.fragments);
};

describe('viewPlanOf', () => {
  it('reads only the selected columns, and nothing below them when nothing below is selected', () => {
    expect(planOf('{ classroomActivity(id: 1) { locked pinned id } }')).toEqual({
      fields: ['locked', 'pinned'],
      classroom: false,
      owner: false,
      unit: false,
      follower: false,
      sessions: null,
    });
  });

  it('follows fragments, inline fragments and aliases, merging what each selects', () => {
    const plan = planOf(`{
      classroomActivity(id: 1) { ...Lesson ... on ClassroomActivity { unit { name } } }
      classroomActivity(id: 1) { people: sessions { state } }
    }
    fragment Lesson on ClassroomActivity { classroom { teacher { name } } sessions { uid student { ...Who } conceptResults { metadata concept { uid } } } }
    fragment Who on User { name }`);
    expect(plan).toMatchObject({ classroom: true, owner: true, unit: true, fields: ['unit'] });
    expect(plan.sessions).toEqual({
      fields: ['uid', 'state'],
      student: { id: false, fields: ['name'] },
      conceptResults: { fields: ['metadata'], concept: ['uid'] },
    });
  });

  it('reads the session uid and the student name for studentNames, and the student id only for fields that need it', () => {
    expect(planOf('{ classroomActivity(id: 1) { studentNames { name } } }').sessions).toEqual({
      fields: ['uid'],
      student: { id: false, fields: ['name'] },
      conceptResults: null,
    });
    expect(planOf('{ classroomActivity(id: 1) { sessions { student { id __typename } } } }').sessions?.student).toEqual({
      id: true,
      fields: [],
    });
    expect(planOf('{ classroomActivity(id: 1) { sessions { student { milestones { name } } } } }').sessions?.student?.id).toBe(true);
  });

  it('gives equal plans one statement name, and different plans different names', () => {
    const a = planOf('{ classroomActivity(id: 1) { locked sessions { uid } } }');
    const b = planOf('{ classroomActivity(id: 1) { ... on ClassroomActivity { sessions { uid } locked } } }');
    const c = planOf('{ classroomActivity(id: 1) { locked sessions { state } } }');
    expect(statementNameOf(a)).toBe(statementNameOf(b));
    expect(statementNameOf(a)).not.toBe(statementNameOf(c));
    expect(statementNameOf({ ...a, follower: true })).not.toBe(statementNameOf(a));
  });
});

describe('prepareView', () => {
  it('joins only what the plan reads, and reads sessions for the classroom’s teachers alone', () => {
    const bare = prepareView(planOf('{ classroomActivity(id: 1) { locked } }'));
    expect(bare.statement).toMatchObject({ shaped: true, name: expect.stringMatching(/^classroom_activity_read_[01]+$/) });
    expect(bare.statement.text).not.toMatch(/classrooms c|units un|activity_sessions|LATERAL/);
    expect(bare.session).toBeNull();
    const full = prepareView(
      planOf(
        '{ classroomActivity(id: 1) { unit { name } classroom { teacher { name } } sessions { uid conceptResults { concept { name } } } } }',
      ),
    );
    expect(full.statement.text).toMatch(/JOIN classrooms c/);
    expect(full.statement.text).toMatch(/LEFT JOIN units un/);
    expect(full.statement.text).toMatch(/CASE WHEN vt\.id IS NOT NULL THEN array\(SELECT array\[s\.id::text, s\.uid\]/);
    expect(full.statement.text).toMatch(/JOIN concepts co/);
    expect(full.session).toMatchObject({ withId: true });
    expect(full.result?.map((element) => element.key)).toEqual(['name']);
  });

  it('asks whether the viewer may follow the lesson only in a follower’s plan', () => {
    const follower = prepareView({ fields: [], classroom: false, owner: false, unit: false, follower: true, sessions: null });
    expect(follower.statement.text).toMatch(/AS "viewerFollows"/);
    expect(prepareView(planOf('{ classroomActivity(id: 1) { locked } }')).statement.text).not.toMatch(/viewerFollows/);
  });
});

describe('planOncePerOperation', () => {
  it('plans a field once per operation, and again for another operation or other merged nodes', () => {
    let planned = 0;
    const planner = planOncePerOperation(() => (planned += 1));
    const one = infoOf('{ classroomActivity(id: 1) { locked } }');
    const other = infoOf('{ classroomActivity(id: 1) { locked } }');
    expect([planner(one), planner(one), planner(one)]).toEqual([1, 1, 1]);
    expect(planner(other)).toBe(2);
    const merged = infoOf('{ classroomActivity(id: 1) { locked } classroomActivity(id: 1) { pinned } }');
    expect(planner({ fieldNodes: merged.fieldNodes.slice(0, 1), fragments: {} })).toBe(3);
    expect(planner(merged)).toBe(4);
    expect(planner(merged)).toBe(4);
  });
});
