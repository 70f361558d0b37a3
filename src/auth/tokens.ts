import { hash, randomBytes } from 'node:crypto';

// Tokens are 256 random bits, shown once; only their SHA-256 is stored. A lookup by hash leaks nothing
// about the token through timing, since the caller cannot steer the hash.

const TOKEN_PREFIX = 'lgw_';

export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  // The one-shot hash: cheaper than createHash, on every authenticated request (docs/performance.md).
  return hash('sha256', token, 'hex');
}

/**
 * A short, non-secret name for a token (the 8 characters after `lgw_`: 48 of its 256 bits), stored so
 * that an operator can revoke a token it can see the start of (`npm run token:revoke -- PREFIX`).
 * Null for a token not in our format (imported plain tokens).
 */
export function tokenPrefix(token: string): string | null {
  return token.startsWith(TOKEN_PREFIX) && token.length >= TOKEN_PREFIX.length + 8
    ? token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + 8)
    : null;
}
