import { ErrorCode, unavailable } from '../core/errors.ts';

// What a database failure means, read from whichever layer raised it (pg, PGlite, Prisma and its driver
// adapters wrap each other's errors): the database cannot be reached (503), or a transaction lost a race.

/** An error, then the error it was caused by, and so on (`cause`), at most five deep. */
export function* causeChain(error: unknown): Generator<Record<string, unknown>> {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth += 1) {
    yield e as Record<string, unknown>;
    e = (e as { cause?: unknown }).cause;
  }
}

// P2028: a transaction could not start (or went on) in time; 57014: the server cancelled a statement (its statement_timeout).
const unavailableCodes = new Set([
  'P1001',
  'P1002',
  'P1008',
  'P1017',
  'P2024',
  'P2028',
  'ECONNREFUSED',
  'ECONNRESET',
  '57P01',
  '57P03',
  '57014',
]);

/** True for an error that says the database cannot be reached, whatever layer raised it. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causeChain(error)) {
    const candidate = e as { code?: unknown; name?: unknown; message?: unknown; extensions?: { code?: unknown } };
    if (typeof candidate.code === 'string' && unavailableCodes.has(candidate.code)) return true;
    if (candidate.extensions?.code === ErrorCode.UNAVAILABLE) return true;
    if (candidate.name === 'PrismaClientInitializationError') return true;
    if (
      typeof candidate.message === 'string' &&
      /ECONNREFUSED|Connection terminated|did not answer in time|connect ETIMEDOUT|DatabaseNotReachable|Can't reach database|timeout exceeded when trying to connect/i.test(
        candidate.message,
      )
    )
      return true;
  }
  return false;
}

/** For a failure outside a resolver (building a request's context): a database outage becomes UNAVAILABLE (503). */
export function rethrowUnavailable(error: unknown): never {
  if (isDatabaseUnavailable(error)) throw unavailable();
  throw error;
}

/** PostgreSQL's codes for a transaction that lost a race it could not wait out: a serialization failure, a deadlock. */
const LOST_RACE_CODES = new Set(['40001', '40P01']);

/**
 * Whether PostgreSQL aborted the transaction because of another one (it then asks the client to retry):
 * two finish_lessons whose follow-ups are each other's lessons lock the two rows in opposite orders, and
 * one of them is chosen as the deadlock's victim. Prisma reports it as P2034 from a model query, and as
 * P2010 carrying the driver adapter's error from a raw one.
 */
export function lostARace(error: unknown): boolean {
  for (const e of causeChain(error)) {
    const candidate = e as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } } };
    if (candidate.code === 'P2034') return true;
    if (typeof candidate.code === 'string' && LOST_RACE_CODES.has(candidate.code)) return true;
    const adapterCause = candidate.meta?.driverAdapterError?.cause;
    if (adapterCause?.kind === 'TransactionWriteConflict') return true;
    if (typeof adapterCause?.originalCode === 'string' && LOST_RACE_CODES.has(adapterCause.originalCode)) return true;
  }
  return false;
}
