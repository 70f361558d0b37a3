import type { User } from '../generated/prisma/client.ts';

// Who is calling, as resolvers and operations see it (src/auth/guards.ts decides what each kind may do).

/**
 * A credential presented but wrong is `invalid`, never anonymous; one whose provider cannot answer (the key
 * set or the session webhook down) is `unavailable`: 503, except that public reads answer as anonymous when
 * only a session cookie was presented. Guards say so after the 404 checks (docs/contract.md, Errors).
 * A user signed in by a cookie on a change sent from an origin that may not use it (`crossSiteCookie`,
 * docs/identity.md, Cookies are ambient credentials) is known, but the guards refuse it (403).
 */
export type Viewer =
  | { kind: 'anonymous' }
  | { kind: 'invalid' }
  | { kind: 'unavailable'; anonymousReads: boolean }
  | { kind: 'user'; user: User; crossSiteCookie?: true };

/** The viewer of a change that an ambient cookie authenticated from an origin that may not use it: refused at the permission stage. */
export const crossSite = (viewer: Viewer): Viewer => (viewer.kind === 'user' ? { ...viewer, crossSiteCookie: true } : viewer);
