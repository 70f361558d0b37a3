import { getNamedType, isObjectType, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { isPublicOperation, PUBLIC_FIELDS } from '../../src/graphql/public-documents.ts';
import { buildSchema } from '../../src/graphql/schema.ts';
import { routes } from '../../src/rest/routes.ts';
import { buildRestSchema } from '../../src/rest/schema.ts';

// Which operations a shared cache may keep (src/graphql/public-documents.ts): queries of the public catalogue
// only, judged from the document through fragments, whatever their names, aliases or directives.

const schema = buildSchema({});
const subgraph = buildSchema({ subgraph: true });
const publicOf = (source: string, operationName?: string) => isPublicOperation(schema, parse(source), operationName);

const ACTIVITY = `activity(id: "10") { __typename id uid name description flags flag data supportingInfo followUpActivityId createdAt updatedAt
  classification { __typename id key name } followUpActivity { uid followUpActivity { uid classification { key } } } }`;

describe('isPublicOperation', () => {
  it.each([
    ['an activity with every field, its classification and follow-ups', `{ ${ACTIVITY} }`],
    [
      'a page of activities',
      '{ activities(first: 5, flag: "beta") { totalCount edges { cursor node { uid } } pageInfo { hasNextPage endCursor } } }',
    ],
    ['uids and flags', 'query Flags { activityFlags { uid flag } }'],
    [
      'aliases, __typename on Query, @include and @skip',
      'query($all: Boolean!) { __typename one: activity(id: "10") { uid @include(if: $all) name @skip(if: $all) } }',
    ],
    [
      'named and inline fragments, nested',
      `query Read { ...Reads } fragment Reads on Query { activity(id: "10") { ...Fields ... on Activity { classification { ...Kind } } } }
       fragment Fields on Activity { uid ... { name } } fragment Kind on ActivityClassification { key }`,
    ],
  ])('%s: public', (_what, source) => {
    expect(publicOf(source)).toBe(true);
  });

  it.each([
    ['a mutation of activities', 'mutation { deleteActivity(id: "10") { id } }'],
    ['a subscription', 'subscription { lessonEvents(classroomActivityId: "100") { kind } }'],
    ['the viewer beside activities', `{ ${ACTIVITY} viewer { id } }`],
    ['a classroom activity', '{ classroomActivity(id: "100") { activity { uid } } }'],
    [
      'a classroom field through a fragment',
      `{ ...Mixed } fragment Mixed on Query { activity(id: "10") { uid } classroomActivity(id: "1") { id } }`,
    ],
    ['a classroom field through an inline fragment', '{ ... on Query { classroomActivity(id: "1") { id } } }'],
    ['__typename below a private field', '{ viewer { __typename } }'],
    ['introspection', '{ __schema { types { name } } }'],
    ['introspection of one type', '{ activity(id: "10") { uid } __type(name: "Activity") { name } }'],
    ['a field unknown to the schema', '{ activity(id: "10") { uid secret } }'],
    ['a fragment spread of no fragment', '{ ...Missing }'],
    ['a fragment spreading itself', '{ ...Loop } fragment Loop on Query { activity(id: "10") { uid } ...Loop }'],
  ])('%s: private', (_what, source) => {
    expect(publicOf(source)).toBe(false);
  });

  it('judges the operation the request names, and no operation when it names none of several or one the document lacks', () => {
    const source = `query Public { activityFlags { uid } } query Private { viewer { id } }`;
    expect(publicOf(source, 'Public')).toBe(true);
    expect(publicOf(source, 'Private')).toBe(false);
    expect(publicOf(source)).toBe(false);
    expect(publicOf('query Public { activityFlags { uid } }', 'Other')).toBe(false);
  });

  it("a subgraph's _entities and _service are private, its activity reads public", () => {
    expect(isPublicOperation(subgraph, parse(`{ ${ACTIVITY} }`))).toBe(true);
    expect(isPublicOperation(subgraph, parse('{ _service { sdl } }'))).toBe(false);
    const entities = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Activity { uid } } }';
    expect(isPublicOperation(subgraph, parse(entities))).toBe(false);
  });

  it('lists only fields the schema has, each of a listed type or a scalar: a field renamed or retyped is noticed here', () => {
    for (const [typeName, fields] of Object.entries(PUBLIC_FIELDS)) {
      const type = schema.getType(typeName);
      expect(isObjectType(type), typeName).toBe(true);
      if (!isObjectType(type)) continue;
      for (const name of fields) {
        const field = type.getFields()[name];
        expect(field, `${typeName}.${name}`).toBeDefined();
        const named = getNamedType(field!.type);
        expect(isObjectType(named) ? named.name in PUBLIC_FIELDS : true, `${typeName}.${name}: ${named.name}`).toBe(true);
      }
    }
  });

  it('the REST shim: the activity GETs and uids_and_flags are public, the classroom routes and every write are not', () => {
    const restSchema = buildRestSchema();
    const judged = routes.map((route) => [`${route.method} ${route.url}`, isPublicOperation(restSchema, parse(route.operation))]);
    expect(judged.filter(([, isPublic]) => isPublic).map(([name]) => name)).toEqual([
      'GET /activities/uids_and_flags',
      'GET /activities/:id',
      'GET /activities/:id/follow_up_activity_name_and_supporting_info',
      'GET /activities/:id/supporting_info',
    ]);
  });
});
