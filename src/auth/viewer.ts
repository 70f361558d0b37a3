import type { SqlRead } from '../db/client.ts';
import type { User } from '../generated/prisma/client.ts';
import { readCredentials } from './credentials.ts';
import { hashToken } from './tokens.ts';

/**
 * Who is calling. A token that is presented but wrong is `invalid`, never anonymous: the resolvers
 * decide when to say so, because an unknown id (404) is reported before bad credentials (401).
 */
export type Viewer = { kind: 'anonymous' } | { kind: 'invalid' } | { kind: 'user'; user: User };

type TokenRow = User & { revokedAt: Date | null; expiresAt: Date | null };

/** Every request with a token starts here: one driver-level read (see SqlRead), the token with its user. */
export async function resolveViewer(read: SqlRead, authorization: string | undefined, now = new Date()): Promise<Viewer> {
  const credentials = readCredentials(authorization);
  if (credentials.kind === 'none') return { kind: 'anonymous' };
  if (credentials.kind === 'malformed') return { kind: 'invalid' };
  const [row] = await read<TokenRow>(
    `SELECT t.revoked_at AS "revokedAt", t.expires_at AS "expiresAt",
            u.id, u.name, u.email, u.role::text AS role, u.created_at AS "createdAt"
     FROM access_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_hash = $1`,
    [hashToken(credentials.token)],
  );
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return { kind: 'invalid' };
  const { revokedAt: _revokedAt, expiresAt: _expiresAt, ...user } = row;
  return { kind: 'user', user };
}
