import { createPublicKey } from 'node:crypto';
import type { JwtSettings } from './jwt.ts';
import type { SessionSettings } from './session-webhook.ts';

// Which identities from the main application the gateway accepts, from the AUTH_* settings (src/config.ts
// reads them): JWTs and the session webhook, each on only when set, with the rules between the settings.

/** The JWS algorithms AUTH_JWT_ALGORITHMS may name (never `none`). */
export const JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'HS256',
  'HS384',
  'HS512',
] as const;

export type Identity = {
  jwt: JwtSettings | undefined;
  /** The cookie that carries a JWT, when one does. */
  jwtCookie: string | undefined;
  session: SessionSettings | undefined;
};

export type IdentityInput = {
  jwtJwksUrl: string | undefined;
  jwtJwksTimeoutMs: number;
  jwtKey: string | undefined;
  jwtIssuers: string[];
  jwtAudiences: string[];
  jwtAlgorithms: (typeof JWT_ALGORITHMS)[number][];
  jwtClockSkewMs: number;
  jwtUserClaim: string;
  jwtCookie: string | undefined;
  sessionWebhookUrl: string | undefined;
  sessionCookie: string | undefined;
  sessionWebhookTimeoutMs: number;
  sessionCacheTtlMs: number;
};

const isSymmetric = (algorithm: string) => algorithm.startsWith('HS');

/** The identities to accept, or the problems that stop the start (each naming its variable). */
export function identitySettings(input: IdentityInput): { identity: Identity; problems: string[] } {
  const problems: string[] = [];
  const jwt = jwtSettings(input, problems);
  if (input.jwtCookie && !jwt) problems.push('AUTH_JWT_COOKIE is set, but JWTs are off: set AUTH_JWT_JWKS_URL or AUTH_JWT_KEY');
  let session: Identity['session'];
  if (input.sessionWebhookUrl) {
    if (!input.sessionCookie)
      problems.push('AUTH_SESSION_COOKIE is required with AUTH_SESSION_WEBHOOK_URL: the cookie the webhook is asked about');
    else
      session = {
        url: input.sessionWebhookUrl,
        cookieName: input.sessionCookie,
        timeoutMs: input.sessionWebhookTimeoutMs,
        cacheTtlMs: input.sessionCacheTtlMs,
      };
  } else if (input.sessionCookie) problems.push('AUTH_SESSION_COOKIE is set, but AUTH_SESSION_WEBHOOK_URL is not');
  if (jwt && session && input.jwtCookie === session.cookieName)
    problems.push('AUTH_JWT_COOKIE and AUTH_SESSION_COOKIE must name different cookies');
  return { identity: { jwt, session, jwtCookie: jwt ? input.jwtCookie : undefined }, problems };
}

function jwtSettings(input: IdentityInput, problems: string[]): JwtSettings | undefined {
  const { jwtJwksUrl, jwtKey } = input;
  if (!jwtJwksUrl && !jwtKey) return undefined;
  if (jwtJwksUrl && jwtKey) {
    problems.push('AUTH_JWT_JWKS_URL and AUTH_JWT_KEY are both set: set one');
    return undefined;
  }
  if (input.jwtIssuers.length === 0) problems.push('AUTH_JWT_ISSUER is required when JWTs are on (AUTH_JWT_JWKS_URL or AUTH_JWT_KEY)');
  if (input.jwtAudiences.length === 0) problems.push('AUTH_JWT_AUDIENCE is required when JWTs are on (AUTH_JWT_JWKS_URL or AUTH_JWT_KEY)');
  let keys: JwtSettings['keys'];
  let symmetric = false;
  if (jwtJwksUrl) keys = { jwksUrl: jwtJwksUrl, timeoutMs: input.jwtJwksTimeoutMs };
  else {
    // A PEM may come with its line breaks written as `\n` (one-line environment files).
    const key = jwtKey!.replace(/\\n/g, '\n').trim();
    if (key.startsWith('-----BEGIN')) {
      try {
        createPublicKey(key);
      } catch {
        problems.push('AUTH_JWT_KEY is not a PEM public key (SPKI, -----BEGIN PUBLIC KEY-----)');
      }
      keys = { pem: key };
    } else {
      symmetric = true;
      if (Buffer.byteLength(jwtKey!) < 32) problems.push('AUTH_JWT_KEY: a shared secret must be at least 32 bytes');
      keys = { secret: jwtKey! };
    }
  }
  const algorithms = input.jwtAlgorithms.length > 0 ? input.jwtAlgorithms : symmetric ? ['HS256'] : ['RS256', 'ES256', 'EdDSA'];
  const wrongFamily = algorithms.filter((algorithm) => isSymmetric(algorithm) !== symmetric);
  if (wrongFamily.length > 0)
    problems.push(
      `AUTH_JWT_ALGORITHMS: ${wrongFamily.join(', ')} cannot be verified with ${symmetric ? 'a shared secret' : 'public keys'}`,
    );
  return {
    keys,
    issuers: input.jwtIssuers,
    audiences: input.jwtAudiences,
    algorithms,
    clockSkewSeconds: input.jwtClockSkewMs / 1_000,
    userClaim: input.jwtUserClaim,
  };
}
