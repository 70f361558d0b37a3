import type { FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Authentication, CredentialSources } from '../auth/authenticator.ts';
import { crossSite, type Viewer } from '../auth/viewer.ts';

// The one rule for ambient credentials (docs/identity.md, Cookies are ambient credentials): cookies and HTTP
// Basic, which a browser sends by itself, count only from an Origin that may use them. Every face asks here:
// /graphql and its stream (src/graphql/csrf.ts), REST (src/rest/plugin.ts), WebSocket and SSE subscriptions.

type OriginOf = Pick<FastifyRequest, 'headers' | 'protocol' | 'host'>;

/** Whether an Authorization header is one a browser may replay by itself: any scheme but Bearer (HTTP Basic). */
export function ambientAuthorization(authorization: string | undefined): boolean {
  const value = authorization?.trim() ?? '';
  return value !== '' && !/^bearer\s/i.test(value);
}

/** Whether a request could carry credentials a browser adds by itself (HTTP Basic or another scheme, any cookie): the CSRF rules' question. */
export function mayCarryAmbientCredentials(headers: Pick<IncomingHttpHeaders, 'authorization' | 'cookie'>): boolean {
  return (headers.cookie !== undefined && headers.cookie.trim() !== '') || ambientAuthorization(headers.authorization);
}

/**
 * Whether a browser request from its Origin may use ambient credentials: no Origin (not a browser's
 * cross-origin request: a server's), one of CORS_ORIGINS, or the gateway's own.
 */
export function originTrusted(request: OriginOf, corsOrigins: readonly string[]): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return corsOrigins.includes(origin) || origin === `${request.protocol}://${request.host}`;
}

/** Whether the credential that decided who is calling came ambient (a cookie, or HTTP Basic) from an Origin that may not use it. */
export function ambientFromForeignOrigin(
  request: OriginOf,
  known: Pick<Authentication, 'fromCookie'>,
  corsOrigins: readonly string[],
): boolean {
  return (known.fromCookie || ambientAuthorization(request.headers.authorization)) && !originTrusted(request, corsOrigins);
}

/**
 * The viewer of a write: one an ambient credential signed in from a foreign Origin is known, but refused at
 * the permission stage (403 after the 404 and 401 checks, src/auth/guards.ts), so nothing changes.
 */
export const viewerOfWrite = (
  request: OriginOf,
  known: Pick<Authentication, 'fromCookie'>,
  viewer: Viewer,
  corsOrigins: readonly string[],
) => (ambientFromForeignOrigin(request, known, corsOrigins) ? crossSite(viewer) : viewer);

/**
 * What a subscription's connection may be authenticated by (a WebSocket's upgrade, read by a page of any
 * origin: no CORS guards it): `given` (connection_init's authorization, which a page sets itself), else the
 * upgrade's Authorization and cookies, the ambient among them only from an Origin that may use them.
 */
export function subscriptionCredentials(
  request: OriginOf,
  given: string | undefined,
  corsOrigins: readonly string[],
): { sources: CredentialSources; cookies: boolean } {
  const trusted = originTrusted(request, corsOrigins);
  const header = request.headers.authorization;
  const authorization = given ?? (trusted || !ambientAuthorization(header) ? header : undefined);
  return { sources: { authorization, cookie: request.headers.cookie }, cookies: trusted };
}
