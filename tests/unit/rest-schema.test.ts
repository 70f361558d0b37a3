import { isInputObjectType, isScalarType, parse, printType, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/graphql/schema.ts';
import { routes } from '../../src/rest/routes.ts';
import { bodyInputTypes, buildRestSchema } from '../../src/rest/schema.ts';

// The REST shim's schema is the public one but for the inputs its routes fill from a body, which it takes
// as given (src/rest/schema.ts): its stored operations are documents of the public schema.

const publicSchema = buildSchema();
const restSchema = buildRestSchema();

describe("the REST shim's schema", () => {
  it('differs from the public schema only in the body inputs, which are scalars of the same name', () => {
    expect(bodyInputTypes.toSorted()).toEqual(['CreateActivityInput', 'FinishLessonInput', 'UpdateActivityInput']);
    for (const type of Object.values(publicSchema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      const shimType = restSchema.getType(type.name);
      if (bodyInputTypes.includes(type.name)) {
        expect(isInputObjectType(type), type.name).toBe(true);
        expect(isScalarType(shimType), type.name).toBe(true);
      } else expect(shimType && printType(shimType), type.name).toBe(printType(type));
    }
  });

  it("runs each route's operation, valid in the public schema as well", () => {
    for (const route of routes) {
      const document = parse(route.operation);
      expect(validate(publicSchema, document), `${route.method} ${route.url}`).toEqual([]);
      expect(validate(restSchema, document), `${route.method} ${route.url}`).toEqual([]);
    }
  });

  it('refuses to take as given a type that is no input of the public schema', () => {
    expect(() => buildSchema({ inputsAsGiven: ['Activity'] })).toThrow(/Not input types of the public schema: Activity/);
  });
});
