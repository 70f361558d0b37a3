import type { SqlRead, Statement } from '../db/client.ts';
import type { User } from '../generated/prisma/client.ts';
import { readCredentials } from './credentials.ts';
import type { TokenCache } from './token-cache.ts';
import { hashToken } from './tokens.ts';

/**
 * Who is calling. A token that is presented but wrong is `invalid`, never anonymous: the modules'
 * operations decide when to say so, because an unknown id (404) is reported before bad credentials (401).
 */
export type Viewer = { kind: 'anonymous' } | { kind: 'invalid' } | { kind: 'user'; user: User };

type TokenRow = User & { revokedAt: Date | null; expiresAt: Date | null };

const TOKEN_WITH_ITS_USER: Statement = {
  name: 'viewer_by_token_hash',
  text: `SELECT t.revoked_at AS "revokedAt", t.expires_at AS "expiresAt",
           u.id, u.name, u.email, u.role::text AS role, u.created_at AS "createdAt"
         FROM access_tokens t JOIN users u ON u.id = t.user_id
         WHERE t.token_hash = $1`,
};

/**
 * Every request with a token starts here: the token with its user, from the instance's cache of tokens
 * verified a moment ago (src/auth/token-cache.ts), else one driver-level read (see SqlRead).
 */
export async function resolveViewer(
  read: SqlRead,
  authorization: string | undefined,
  cache?: TokenCache,
  now = new Date(),
): Promise<Viewer> {
  const credentials = readCredentials(authorization);
  if (credentials.kind === 'none') return { kind: 'anonymous' };
  if (credentials.kind === 'malformed') return { kind: 'invalid' };
  const tokenHash = hashToken(credentials.token);
  const cached = cache?.get(tokenHash, now);
  if (cached) return { kind: 'user', user: cached };
  const begun = cache?.begin();
  const [row] = await read<TokenRow>(TOKEN_WITH_ITS_USER, [tokenHash]);
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return { kind: 'invalid' };
  const { revokedAt: _revokedAt, expiresAt, ...user } = row;
  if (cache && begun !== undefined) cache.keep(tokenHash, user, expiresAt, begun, now);
  return { kind: 'user', user };
}
