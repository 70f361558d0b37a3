import type { SqlRead, Statement } from '../db/client.ts';
import type { User } from '../generated/prisma/client.ts';
import type { TokenCache } from './token-cache.ts';
import { hashToken } from './tokens.ts';

// The gateway's own access tokens (docs/contract.md, Who may do what): found by their hash with their user,
// from the instance's tokens verified a moment ago (src/auth/token-cache.ts), else in one read.

type TokenRow = User & { revokedAt: Date | null; expiresAt: Date | null };

const TOKEN_WITH_ITS_USER: Statement = {
  name: 'viewer_by_token_hash',
  text: `SELECT t.revoked_at AS "revokedAt", t.expires_at AS "expiresAt",
           u.id, u.name, u.email, u.role::text AS role, u.created_at AS "createdAt"
         FROM access_tokens t JOIN users u ON u.id = t.user_id
         WHERE t.token_hash = $1`,
};

export async function ownTokenUser(
  read: SqlRead,
  token: string,
  cache: TokenCache,
  now = new Date(),
): Promise<{ kind: 'user'; user: User } | { kind: 'invalid'; reason: string }> {
  const tokenHash = hashToken(token);
  const cached = cache.get(tokenHash, now);
  if (cached) return { kind: 'user', user: cached.user };
  const begun = cache.begin();
  const [row] = await read<TokenRow>(TOKEN_WITH_ITS_USER, [tokenHash]);
  if (!row) return { kind: 'invalid', reason: 'unknown token' };
  if (row.revokedAt) return { kind: 'invalid', reason: 'revoked token' };
  if (row.expiresAt && row.expiresAt <= now) return { kind: 'invalid', reason: 'expired token' };
  const { revokedAt: _revokedAt, expiresAt, ...user } = row;
  cache.keep(tokenHash, user, expiresAt, begun, now);
  return { kind: 'user', user };
}
