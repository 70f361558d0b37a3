import type { FastifyRequest } from 'fastify';
import { createAuthenticator, type Authentication, type Authenticator, type AuthMethod, type AuthOutcome } from '../auth/authenticator.ts';
import { TokenCache } from '../auth/token-cache.ts';
import type { Config } from '../config.ts';
import type { SqlRead } from '../db/client.ts';

// Who is calling, asked of the authenticator (src/auth/authenticator.ts) once per HTTP request, and shared
// by the rate limit, the GraphQL and REST contexts and the request's log line; callersFor builds them all.

export type RequestAuthentication = {
  /** The request's authentication, asked on first use. */
  of(request: FastifyRequest): Promise<Authentication>;
  /** The request's authentication if it has been settled (for the log line, which never asks). */
  known(request: FastifyRequest): Authentication | undefined;
  /** Whether asking would call the platform's session webhook (a session cookie not remembered): see src/http/rate-limit.ts. */
  asksPlatform(request: FastifyRequest): boolean;
};

export function authenticationPerRequest(authenticator: Authenticator): RequestAuthentication {
  const asked = new WeakMap<FastifyRequest, Promise<Authentication>>();
  const settled = new WeakMap<FastifyRequest, Authentication>();
  return {
    of(request) {
      let authentication = asked.get(request);
      if (!authentication) {
        authentication = authenticator.authenticate(request.headers).then((known) => {
          settled.set(request, known);
          return known;
        });
        asked.set(request, authentication);
      }
      return authentication;
    },
    known: (request) => settled.get(request),
    asksPlatform: (request) => !asked.has(request) && authenticator.asksPlatform(request.headers),
  };
}

export type Callers = { tokenCache: TokenCache; authenticator: Authenticator; authentication: RequestAuthentication };

/** One authenticator for every face (with its token cache), asked once per HTTP request. */
export function callersFor(config: Config, read: SqlRead, onOutcome?: (method: AuthMethod, outcome: AuthOutcome) => void): Callers {
  const tokenCache = new TokenCache(config.tokenCacheTtlMs);
  const authenticator = createAuthenticator({ identity: config.identity, read, tokenCache, ...(onOutcome ? { onOutcome } : {}) });
  return { tokenCache, authenticator, authentication: authenticationPerRequest(authenticator) };
}
