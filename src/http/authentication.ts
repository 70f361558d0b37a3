import type { FastifyRequest } from 'fastify';
import type { Authentication, Authenticator } from '../auth/authenticator.ts';

// Who is calling, asked of the authenticator (src/auth/authenticator.ts) once per HTTP request, and shared
// by the rate limit, the GraphQL and REST contexts and the request's log line.

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
