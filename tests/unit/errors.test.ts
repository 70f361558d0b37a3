import { describe, expect, it } from 'vitest';
import { addFieldError, badUserInput, quote, unavailable, type FieldErrors } from '../../src/core/errors.ts';
import { isDatabaseUnavailable, lostARace } from '../../src/db/errors.ts';
import { fromGraphQLError, fromHttpStatus } from '../../src/http/errors.ts';

// Errors as a client sees them (src/core/errors.ts), what a database failure means (src/db/errors.ts), and
// the HTTP envelope (src/http/errors.ts).

describe('quote', () => {
  it('quotes a value as JSON, shortened past 80 characters, and survives what JSON cannot write', () => {
    expect(quote('x')).toBe('"x"');
    expect(quote(undefined)).toBe('undefined');
    expect(quote(12)).toBe('12');
    expect(quote('a'.repeat(200))).toHaveLength(80);
    expect(quote('a'.repeat(200)).endsWith('...')).toBe(true);
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(quote(deep)).toBe('[...]');
    expect(quote(() => 1)).toBe('function');
  });
});

describe('addFieldError', () => {
  it('collects messages per path, once each', () => {
    const fields: FieldErrors = {};
    addFieldError(fields, 'a', 'is required');
    addFieldError(fields, 'a', 'is required');
    addFieldError(fields, 'a', 'must be short');
    expect(fields).toEqual({ a: ['is required', 'must be short'] });
    expect(badUserInput(fields).extensions).toEqual({ code: 'BAD_USER_INPUT', fields });
  });
});

describe('the HTTP envelope', () => {
  it('maps each code to its status and meta status, with the fields of a 422, and hides what it does not know', () => {
    expect(fromGraphQLError({ message: 'no', extensions: { code: 'UNAUTHENTICATED' } })).toEqual({
      status: 401,
      body: { meta: { status: 'unauthorized', message: 'no', errors: null } },
    });
    expect(fromGraphQLError({ message: 'bad', extensions: { code: 'BAD_USER_INPUT', fields: { a: ['x'] } } }).body.meta).toEqual({
      status: 'invalid',
      message: 'bad',
      errors: { a: ['x'] },
    });
    expect(fromGraphQLError({ message: 'whatever', extensions: { code: 'NOT_FOUND' } }).body.meta.message).toBe(
      'The resource you were looking for does not exist',
    );
    expect(fromGraphQLError({ message: 'secret internals', extensions: { code: 'SOMETHING' } })).toEqual({
      status: 500,
      body: { meta: { status: 'error', message: 'Something went wrong on our side', errors: null } },
    });
    expect(fromGraphQLError(unavailable()).status).toBe(503);
  });

  it('answers HTTP statuses in the same envelope, hiding a 5xx’s message but 503’s', () => {
    expect(fromHttpStatus(413, 'too big').meta).toEqual({ status: 'payload_too_large', message: 'too big', errors: null });
    expect(fromHttpStatus(429, 'slow down').meta.status).toBe('rate_limited');
    expect(fromHttpStatus(418, 'teapot').meta.status).toBe('bad_request');
    expect(fromHttpStatus(502, 'upstream secret').meta).toEqual({
      status: 'error',
      message: 'Something went wrong on our side',
      errors: null,
    });
    expect(fromHttpStatus(503, 'try later').meta).toEqual({ status: 'unavailable', message: 'try later', errors: null });
  });
});

describe('database failures', () => {
  it('tells an unreachable database by its code, its name or its message, at any depth of causes', () => {
    expect(isDatabaseUnavailable({ code: 'ECONNREFUSED' })).toBe(true);
    expect(isDatabaseUnavailable({ name: 'PrismaClientInitializationError' })).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: new Error('wrapped', { cause: { code: '57P01' } }) }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(unavailable())).toBe(true);
    expect(isDatabaseUnavailable(new Error('syntax error at or near "SELEC"'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it('tells a transaction that lost a race: a deadlock or a serialization failure, as Prisma and the adapters report it', () => {
    expect(lostARace({ code: 'P2034' })).toBe(true);
    expect(lostARace({ code: '40P01' })).toBe(true);
    expect(lostARace({ code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: '40001' } } } })).toBe(true);
    expect(
      lostARace(new Error('outer', { cause: { meta: { driverAdapterError: { cause: { kind: 'TransactionWriteConflict' } } } } })),
    ).toBe(true);
    expect(lostARace({ code: '23505' })).toBe(false);
  });
});
