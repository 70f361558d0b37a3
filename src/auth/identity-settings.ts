import type { JwtSettings } from './jwt.ts';
import { PUBLIC_KEY_ALGORITHMS, readJwtKey } from './jwt-key.ts';
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

/** The identities to accept, or the problems that stop the start (each naming its variable). */
export function identitySettings(input: IdentityInput): { identity: Identity; problems: string[] } {
  const problems: string[] = [];
  const jwtOn = Boolean(input.jwtJwksUrl || input.jwtKey);
  const jwt = jwtSettings(input, problems);
  if (input.jwtCookie && !jwtOn) problems.push('AUTH_JWT_COOKIE is set, but JWTs are off: set AUTH_JWT_JWKS_URL or AUTH_JWT_KEY');
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
  if (jwtOn && session && input.jwtCookie === session.cookieName)
    problems.push('AUTH_JWT_COOKIE and AUTH_SESSION_COOKIE must name different cookies');
  return { identity: { jwt, session, jwtCookie: jwt ? input.jwtCookie : undefined }, problems };
}

/**
 * JWTs' settings: the key set or the static key (imported here, once), and the listed algorithms that key
 * can verify. Listed algorithms it cannot verify (another family, another curve) are left out, so that a
 * token naming one is refused; when none is left, the start stops.
 */
function jwtSettings(input: IdentityInput, problems: string[]): JwtSettings | undefined {
  const { jwtJwksUrl, jwtKey } = input;
  if (!jwtJwksUrl && !jwtKey) return undefined;
  if (jwtJwksUrl && jwtKey) {
    problems.push('AUTH_JWT_JWKS_URL and AUTH_JWT_KEY are both set: set one');
    return undefined;
  }
  if (input.jwtIssuers.length === 0) problems.push('AUTH_JWT_ISSUER is required when JWTs are on (AUTH_JWT_JWKS_URL or AUTH_JWT_KEY)');
  if (input.jwtAudiences.length === 0) problems.push('AUTH_JWT_AUDIENCE is required when JWTs are on (AUTH_JWT_JWKS_URL or AUTH_JWT_KEY)');
  const key = jwtJwksUrl
    ? {
        keys: { jwksUrl: jwtJwksUrl, timeoutMs: input.jwtJwksTimeoutMs },
        verifies: PUBLIC_KEY_ALGORITHMS as readonly string[],
        described: 'the key set of AUTH_JWT_JWKS_URL (public keys)',
      }
    : readJwtKey(jwtKey!);
  if ('problem' in key) {
    problems.push(key.problem);
    return undefined;
  }
  const listed: string[] =
    input.jwtAlgorithms.length > 0 ? input.jwtAlgorithms : 'secret' in key.keys ? ['HS256'] : ['RS256', 'ES256', 'EdDSA'];
  const algorithms = listed.filter((algorithm) => key.verifies.includes(algorithm));
  if (algorithms.length === 0) {
    const named = `${listed.join(', ')}${input.jwtAlgorithms.length > 0 ? '' : ' (the default)'}`;
    const source = jwtJwksUrl ? key.described : `AUTH_JWT_KEY (${key.described})`;
    problems.push(`AUTH_JWT_ALGORITHMS: none of ${named} verifies a token with ${source}: it verifies ${key.verifies.join(', ')}`);
  }
  return {
    keys: key.keys,
    issuers: input.jwtIssuers,
    audiences: input.jwtAudiences,
    algorithms,
    clockSkewSeconds: input.jwtClockSkewMs / 1_000,
    userClaim: input.jwtUserClaim,
  };
}
