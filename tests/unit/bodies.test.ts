import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  activityInputFromBody,
  bodyPath,
  finishLessonInputFromBody,
  requireJsonObject,
  withBodyFieldNames,
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

describe('withBodyFieldNames', () => {
  it('renames the fields of a BAD_USER_INPUT, merging paths that become one, and passes other errors as they are', async () => {
    const invalid = new GraphQLError('Some fields are invalid', {
      extensions: {
        code: 'BAD_USER_INPUT',
        fields: { 'conceptResults[0].metadata.extra.a': ['x'], 'conceptResults[0].metadata.a': ['y'] },
      },
    });
    await expect(withBodyFieldNames(() => Promise.reject(invalid))).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', fields: { 'concept_results[0].metadata.a': ['x', 'y'] } },
    });
    const other = new GraphQLError('no', { extensions: { code: 'FORBIDDEN' } });
    await expect(withBodyFieldNames(() => Promise.reject(other))).rejects.toBe(other);
    await expect(withBodyFieldNames(() => Promise.resolve(7))).resolves.toBe(7);
  });
});
