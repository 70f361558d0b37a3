import type { User } from '../generated/prisma/client.ts';
import { forbidden, unauthenticated, unavailable } from '../core/errors.ts';
import type { Viewer } from './viewer.ts';

// What each kind of viewer is, for the table of who may do what (src/auth/access.ts). Each runs after the
// resource was found, so the order of checks is 404 → 401 (or 503 when the caller cannot be known) → 403.

/** Anonymous callers are welcome; a wrong credential is not, nor one whose provider cannot say (but a session cookie's). */
export function allowAnonymous(viewer: Viewer): User | null {
  if (viewer.kind === 'invalid') throw unauthenticated('The access token is invalid, expired or revoked');
  if (viewer.kind === 'unavailable' && !viewer.anonymousReads) throw unavailable();
  return viewer.kind === 'user' ? viewer.user : null;
}

/** A signed-in user; every change and every guarded read goes through here. */
export function requireUser(viewer: Viewer): User {
  if (viewer.kind === 'unavailable') throw unavailable();
  const user = allowAnonymous(viewer);
  if (!user) throw unauthenticated();
  if (viewer.kind === 'user' && viewer.crossSiteCookie)
    throw forbidden('A change authenticated by a cookie must come from an allowed origin');
  return user;
}
