import type { User } from '../generated/prisma/client.ts';
import { forbidden, unauthenticated } from '../core/errors.ts';
import type { Viewer } from './viewer.ts';

// Who may do what (docs/contract.md, Who may do what). Each guard runs after the resource was found,
// so the order of checks is 404 → 401 → 403.

/** Anonymous callers are welcome; a wrong token is not. */
export function allowAnonymous(viewer: Viewer): User | null {
  if (viewer.kind === 'invalid') throw unauthenticated('The access token is invalid, expired or revoked');
  return viewer.kind === 'user' ? viewer.user : null;
}

export function requireUser(viewer: Viewer): User {
  const user = allowAnonymous(viewer);
  if (!user) throw unauthenticated();
  return user;
}

export function requireStaff(viewer: Viewer): User {
  const user = requireUser(viewer);
  if (user.role !== 'staff') throw forbidden('Only staff may change activities');
  return user;
}
