import type { Db } from './client.ts';
import type { Prisma } from '../generated/prisma/client.ts';

export type Tx = Prisma.TransactionClient;

/** One mutation, one transaction. Generous limits: a lesson may end with 10,000 concept results. */
export function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(work, { maxWait: 10_000, timeout: 60_000 });
}
