import type { Db } from '../db/client.ts';
import type { Tx } from '../db/transaction.ts';
import type { User } from '../generated/prisma/client.ts';
import { hashToken, newToken, tokenPrefix } from './tokens.ts';

export class UnknownUserError extends Error {
  constructor(readonly userId: number) {
    super(`No user has id ${userId}`);
  }
}

export type IssuedToken = { id: number; token: string; user: User; expiresAt: Date | null };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Issues a new access token for a user. Only its hash is stored: the token itself is returned once and
 * cannot be recovered later.
 */
export async function issueAccessToken(
  db: Db | Tx,
  { userId, expiresInDays, now = new Date() }: { userId: number; expiresInDays?: number | undefined; now?: Date },
): Promise<IssuedToken> {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw new UnknownUserError(userId);
  const token = newToken();
  const expiresAt = expiresInDays === undefined ? null : new Date(now.getTime() + expiresInDays * DAY_MS);
  const { id } = await db.accessToken.create({
    data: { userId, tokenHash: hashToken(token), tokenPrefix: tokenPrefix(token), expiresAt },
    select: { id: true },
  });
  return { id, token, user, expiresAt };
}
