import { hash } from 'node:crypto';
import { parseCookie } from 'cookie';
import type { SqlRead, Statement } from '../db/client.ts';
import type { User } from '../generated/prisma/client.ts';
import { ownTokenKey, readCredentials } from './credentials.ts';
import type { Identity } from './identity-settings.ts';
import { jwtVerifier, looksLikeJwt } from './jwt.ts';
import { sessionWebhook } from './session-webhook.ts';
import type { TokenCache } from './token-cache.ts';
import { ownTokenUser } from './own-token.ts';
import type { Viewer } from './viewer.ts';

// The one seam between a request and who is calling (docs/identity.md): its credentials, read in the
// order the contract gives (the gateway's own token, a JWT, the platform's session cookie), each turned
// into a viewer by its strategy; a failure never falls through to the next credential.

export type AuthMethod = 'token' | 'jwt' | 'session';
export type AuthOutcome = 'success' | 'invalid' | 'unavailable' | 'no_session';

export type Authentication = {
  viewer: Viewer;
  /** The credential that decided; undefined when none was presented. */
  method: AuthMethod | undefined;
  /** Whether that credential came in a cookie (ambient: the CSRF rules apply to it). */
  fromCookie: boolean;
  /** Counts this caller (the rate limit, sockets per caller): per user for JWTs and sessions, per token for the gateway's own; undefined when no caller is known. */
  callerKey: string | undefined;
  /** When the identity lapses by itself: a JWT's `exp`, with the clock skew allowed (a WebSocket is closed then). */
  expiresAt: Date | undefined;
  /** Which check failed, for the log line: never the credential itself. */
  reason: string | undefined;
};

export type CredentialSources = { authorization?: string | undefined; cookie?: string | undefined };

const USER_BY_ID: Statement = {
  name: 'user_by_id',
  text: 'SELECT id, name, email, role::text AS role, created_at AS "createdAt" FROM users WHERE id = $1',
};

const anonymous: Authentication = {
  viewer: { kind: 'anonymous' },
  method: undefined,
  fromCookie: false,
  callerKey: undefined,
  expiresAt: undefined,
  reason: undefined,
};

export type Authenticator = ReturnType<typeof createAuthenticator>;

type AuthenticatorOptions = {
  identity: Identity;
  read: SqlRead;
  /** Verified tokens and JWTs remembered a moment (src/auth/token-cache.ts). */
  tokenCache: TokenCache;
  /** Told of each authentication's method and outcome (the metrics). */
  onOutcome?: (method: AuthMethod, outcome: AuthOutcome) => void;
};

export function createAuthenticator({ identity, read, tokenCache, onOutcome = () => {} }: AuthenticatorOptions) {
  const outcome: Outcome = (method, fromCookie, result) => {
    const kind = result.viewer.kind;
    onOutcome(method, kind === 'user' ? 'success' : kind === 'invalid' ? 'invalid' : kind === 'unavailable' ? 'unavailable' : 'no_session');
    return { ...result, method, fromCookie };
  };
  const { byOwnToken, byJwt, bySession, readsJwts, askSession } = strategies({ identity, read, tokenCache }, outcome);

  /** A session or JWT cookie, as `authenticate` reads it (values as sent). */
  const credentialCookie = (cookie: string) => {
    const jar = parseCookie(cookie, { decode: (value) => value });
    const jwt = identity.jwtCookie === undefined ? undefined : jar[identity.jwtCookie];
    const session = identity.session && jar[identity.session.cookieName];
    return { jwt, session };
  };
  const presented = (authorization: string | undefined): authorization is string =>
    authorization !== undefined && authorization.trim() !== '';
  const readsCookies = identity.jwtCookie !== undefined || identity.session !== undefined;

  return {
    /** Who is calling, from an HTTP request's headers, or a WebSocket's `connection_init` (`cookies` false: not trusted for its origin). */
    authenticate({ authorization, cookie }: CredentialSources, { cookies = true }: { cookies?: boolean } = {}): Promise<Authentication> {
      if (presented(authorization)) {
        const credentials = readCredentials(authorization);
        if (credentials.kind !== 'token') return Promise.resolve(outcome('token', false, refused('malformed Authorization header')));
        if (credentials.scheme === 'bearer' && readsJwts && looksLikeJwt(credentials.token)) return byJwt(credentials.token, false);
        return byOwnToken(credentials.token);
      }
      if (cookies && cookie) {
        // Values as sent: a session cookie is handed on to the webhook exactly.
        const { jwt, session } = credentialCookie(cookie);
        if (jwt) return byJwt(jwt, true);
        if (session) return bySession(session);
      }
      return Promise.resolve(anonymous);
    },
    /**
     * Whether an HTTP request presents a credential `authenticate` would weigh, valid or not, without
     * verifying it: an answer to such a request is never a public one (docs/operations.md, HTTP caching).
     */
    presentsCredential({ authorization, cookie }: CredentialSources): boolean {
      if (presented(authorization)) return true;
      if (!cookie || !readsCookies) return false;
      const { jwt, session } = credentialCookie(cookie);
      return Boolean(jwt || session);
    },
    /**
     * Whether `authenticate` would ask the platform's session webhook (a session cookie it does not remember):
     * the rate limit counts that call against the client's IP before it is made (src/http/rate-limit.ts).
     */
    asksPlatform({ authorization, cookie }: CredentialSources): boolean {
      if (presented(authorization) || !cookie || !askSession) return false;
      const { jwt, session } = credentialCookie(cookie);
      return !jwt && session !== undefined && session !== '' && !askSession.knows(session);
    },
    /** Whether a cookie may carry a credential (AUTH_JWT_COOKIE or AUTH_SESSION_COOKIE set). */
    readsCookies,
  };
}

type Decided = Omit<Authentication, 'method' | 'fromCookie'>;
type Outcome = (method: AuthMethod, fromCookie: boolean, result: Decided) => Authentication;

const refused = (reason: string): Decided => ({ viewer: { kind: 'invalid' }, callerKey: undefined, expiresAt: undefined, reason });
const signedIn = (user: User, expiresAt?: Date): Decided => ({
  viewer: { kind: 'user', user },
  callerKey: `user:${user.id}`,
  expiresAt,
  reason: undefined,
});

/** Each credential turned into a viewer: the gateway's own token, a JWT, the platform's session. */
function strategies({ identity, read, tokenCache }: Omit<AuthenticatorOptions, 'onOutcome'>, outcome: Outcome) {
  const verifyJwt = identity.jwt && jwtVerifier(identity.jwt);
  const skewMs = (identity.jwt?.clockSkewSeconds ?? 0) * 1_000;
  const lapses = (expiresAt: Date) => new Date(expiresAt.getTime() + skewMs);
  const askSession = identity.session && sessionWebhook(identity.session);

  const byOwnToken = async (token: string): Promise<Authentication> => {
    const found = await ownTokenUser(read, token, tokenCache);
    // A known token counts as itself (not as its user), however the header spelled it; an unknown one names
    // no caller, and counts by IP like anyone anonymous (docs/contract.md, What a caller is).
    if (found.kind !== 'user') return outcome('token', false, refused(found.reason));
    return outcome('token', false, { ...signedIn(found.user), callerKey: `token:${ownTokenKey(token)}` });
  };

  const byJwt = async (jwt: string, fromCookie: boolean): Promise<Authentication> => {
    // Kept apart from the gateway's own tokens (keyed by their bare hash): Basic with a JWT as its user name is no JWT.
    const jwtHash = `jwt:${hash('sha256', jwt, 'hex')}`;
    const now = new Date();
    const cached = tokenCache.get(jwtHash, now);
    if (cached) return outcome('jwt', fromCookie, signedIn(cached.user, lapses(cached.expiresAt!)));
    const begun = tokenCache.begin();
    const verified = await verifyJwt!(jwt);
    if (verified.kind === 'unavailable')
      return outcome('jwt', fromCookie, { ...refused(verified.reason), viewer: { kind: 'unavailable', anonymousReads: false } });
    if (verified.kind === 'refused') return outcome('jwt', fromCookie, refused(verified.reason));
    const [user] = await read<User>(USER_BY_ID, [verified.userId]);
    if (!user) return outcome('jwt', fromCookie, refused('no user has the id the token names'));
    tokenCache.keep(jwtHash, user, verified.expiresAt, begun, now);
    return outcome('jwt', fromCookie, signedIn(user, lapses(verified.expiresAt)));
  };

  const bySession = async (cookie: string): Promise<Authentication> => {
    const answer = await askSession!(cookie);
    if (answer.kind === 'unavailable')
      return outcome('session', true, { ...refused(answer.reason), viewer: { kind: 'unavailable', anonymousReads: true } });
    if (answer.kind === 'none') return outcome('session', true, { ...anonymous, reason: 'no session' });
    const [user] = await read<User>(USER_BY_ID, [answer.userId]);
    if (!user) return outcome('session', true, refused('no user has the id the session names'));
    return outcome('session', true, signedIn(user));
  };

  return { byOwnToken, byJwt, bySession, readsJwts: Boolean(verifyJwt), askSession };
}
