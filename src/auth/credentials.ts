import { hash } from 'node:crypto';

// Credentials as a request presents them: a token in an Authorization header (`Bearer <token>`, or, for
// old clients, HTTP Basic with the token as the user name and an empty password), and which are ambient.

export type PresentedCredentials = { kind: 'none' } | { kind: 'malformed' } | { kind: 'token'; token: string; scheme: 'bearer' | 'basic' };

export function readCredentials(header: string | undefined): PresentedCredentials {
  if (header === undefined || header.trim() === '') return { kind: 'none' };
  const match = /^(\w+)\s+(\S+)\s*$/.exec(header.trim());
  if (!match) return { kind: 'malformed' };
  const scheme = match[1]!.toLowerCase();
  const value = match[2]!;
  if (scheme === 'bearer') return { kind: 'token', token: value, scheme };
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon === -1 ? decoded : decoded.slice(0, colon);
    const password = colon === -1 ? '' : decoded.slice(colon + 1);
    return user !== '' && password === '' ? { kind: 'token', token: user, scheme } : { kind: 'malformed' };
  }
  return { kind: 'malformed' };
}

/**
 * A key for counting by an own token without keeping it (the rate limit, sockets per token): a hash of the
 * token as read, so that every spelling of one header (`bearer`, spaces, Basic) is one key.
 */
export function ownTokenKey(token: string): string {
  return hash('sha256', token, 'hex').slice(0, 32);
}
