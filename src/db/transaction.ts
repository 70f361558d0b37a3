import type { Db } from './client.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { causeChain } from './errors.ts';

export type Tx = Prisma.TransactionClient;

/** PostgreSQL's codes for a transaction that lost a race it could not wait out: a serialization failure, a deadlock. */
const LOST_RACE_CODES = new Set(['40001', '40P01']);
/** A transaction that lost such a race is run again, from the start, at most this many times in all. */
const ATTEMPTS = 3;

/**
 * Whether PostgreSQL aborted the transaction because of another one (it then asks the client to retry):
 * two finish_lessons whose follow-ups are each other's lessons lock the two rows in opposite orders, and
 * one of them is chosen as the deadlock's victim. Prisma reports it as P2034 from a model query, and as
 * P2010 carrying the driver adapter's error from a raw one.
 */
function lostARace(error: unknown): boolean {
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

/**
 * One mutation, one transaction. Generous limits: a lesson may end with 10,000 concept results. A
 * transaction PostgreSQL aborted as a deadlock's victim, or for a serialization failure, is run again:
 * nothing of it was kept (its lesson events too are sent only at commit), and the other one has moved on.
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.$transaction(work, { maxWait: 10_000, timeout: 60_000 });
    } catch (error) {
      if (attempt >= ATTEMPTS || !lostARace(error)) throw error;
    }
  }
}
