import type { Db } from './client.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { lostARace } from './errors.ts';

export type Tx = Prisma.TransactionClient;

/** A transaction that lost a race (src/db/errors.ts, lostARace) is run again, from the start, at most this many times in all. */
const ATTEMPTS = 3;

/**
 * One mutation, one transaction, with the client's limits (src/db/client.ts: a bounded wait to start, a
 * generous time to run: a lesson may end with 10,000 concept results). A
 * transaction PostgreSQL aborted as a deadlock's victim, or for a serialization failure, is run again:
 * nothing of it was kept (its lesson events too are sent only at commit), and the other one has moved on.
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.$transaction(work);
    } catch (error) {
      if (attempt >= ATTEMPTS || !lostARace(error)) throw error;
    }
  }
}
