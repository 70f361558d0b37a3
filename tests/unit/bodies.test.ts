import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  activityInputFromBody,
  bodyPath,
  finishLessonInputFromBody,
  createActivityInput,
  inBodyWords,
  requireJsonObject,
} from '../../src/rest/bodies.ts';

// The REST bodies in the GraphQL inputs' words, and field paths back in the body's own (src/rest/bodies.ts).

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return { code: (error as GraphQLError).extensions.code, fields: (error as GraphQLError).extensions.fields };
  }
  return null;
};

describe('bodyPath', () => {
  it('puts field names back in snake_case, up to the metadata, whose keys are the client’s own', () => {
    expect(bodyPath('followUp')).toBe('follow_up');
    expect(bodyPath('conceptResults[3].activitySessionUid')).toBe('concept_results[3].activity_session_uid');
    expect(bodyPath('conceptResults[0].metadata.attemptNumber')).toBe('concept_results[0].metadata.attemptNumber');
    expect(bodyPath('conceptResults[0].metadata.extra.myNote')).toBe('concept_results[0].metadata.myNote');
    expect(bodyPath('conceptResults[0].metadata')).toBe('concept_results[0].metadata');
    expect(bodyPath('conceptResults[0].metadataX')).toBe('concept_results[0].metadata_x');
  });
});

describe('requireJsonObject', () => {
  it('takes an empty body as {}, refuses a value that is not an object with BAD_REQUEST', () => {
    expect(requireJsonObject(undefined)).toEqual({});
    expect(requireJsonObject(null)).toEqual({});
    expect(requireJsonObject({ a: 1 })).toEqual({ a: 1 });
    for (const body of ['text', 3, [1], true]) expect(codeOf(() => requireJsonObject(body))?.code).toBe('BAD_REQUEST');
  });
});

describe('finishLessonInputFromBody', () => {
  it('renames the keys it knows, keeps unknown metadata keys as `extra`, and leaves out what is absent', () => {
    const input = finishLessonInputFromBody({
      follow_up: true,
      ignored: 1,
      concept_results: [
        {
          activity_session_uid: 's',
          concept_uid: 'c',
          question_type: 'q',
          edition_id: 'e',
          metadata: { correct: 1, attemptNumber: 1, questionNumber: 2, note: 'kept' },
        },
        'not an object',
      ],
    });
    expect(input).toEqual({
      followUp: true,
      conceptResults: [
        {
          activitySessionUid: 's',
          conceptUid: 'c',
          questionType: 'q',
          editionId: 'e',
          metadata: { correct: 1, attemptNumber: 1, questionNumber: 2, extra: { note: 'kept' } },
        },
        'not an object',
      ],
    });
    expect(finishLessonInputFromBody({})).toEqual({});
    expect(finishLessonInputFromBody({ concept_results: 'x' })).toEqual({ conceptResults: 'x' });
  });
});

describe('activityInputFromBody', () => {
  it('needs an activity object (422 naming `activity` otherwise) and renames its keys', () => {
    expect(activityInputFromBody({ activity: { name: 'n', supporting_info: 'https://x.test', classification_id: 6, other: 1 } })).toEqual({
      name: 'n',
      supportingInfo: 'https://x.test',
      classificationId: 6,
    });
    for (const body of [{}, { activity: null }, { activity: 'x' }, { activity: [1] }]) {
      const failure = codeOf(() => activityInputFromBody(body));
      expect(failure?.code).toBe('BAD_USER_INPUT');
      expect(Object.keys(failure?.fields as object)).toEqual(['activity']);
    }
  });
});

describe('inBodyWords', () => {
  it('renames the fields of a BAD_USER_INPUT, merging paths that become one, and passes other errors as they are', () => {
    const read = { input: {} };
    const invalid = {
      message: 'Some fields are invalid',
      extensions: {
        code: 'BAD_USER_INPUT',
        fields: { 'conceptResults[0].metadata.extra.a': ['x'], 'conceptResults[0].metadata.a': ['y'] },
      },
    };
    expect(inBodyWords(invalid, read)).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', fields: { 'concept_results[0].metadata.a': ['x', 'y'] } },
    });
    const other = { message: 'no', extensions: { code: 'FORBIDDEN' } };
    expect(inBodyWords(other, read)).toBe(other);
    expect(inBodyWords(other, createActivityInput.read('text'))).toBe(other);
  });

  it("answers a body that could not be translated with its own refusal, in place of the operation's invalid input", () => {
    const invalid = { message: 'Some fields are invalid', extensions: { code: 'BAD_USER_INPUT', fields: { name: ['is required'] } } };
    expect(inBodyWords(invalid, createActivityInput.read('text')).extensions).toMatchObject({ code: 'BAD_REQUEST' });
    expect(inBodyWords(invalid, createActivityInput.read({})).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: { activity: [expect.any(String)] },
    });
  });
});
