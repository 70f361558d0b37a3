import type { KeyObject } from 'node:crypto';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  jwtVerify,
  type FlattenedJWSInput,
  type CompactJWSHeaderParameters,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { parseNumericId } from '../core/validation.ts';
import type { StaticJwtKey } from './jwt-key.ts';

// JWTs signed by the platform's identity provider (docs/identity.md): jose verifies them against a JWKS
// or a static key; this file adds what jose leaves to its caller: the last good key set while the JWKS
// URL is down, the user claim at a namespaced path, and which failures are the token's (401) or not (503).

export type JwtSettings = {
  /** The key set's URL, or a static key imported at start (src/auth/jwt-key.ts). */
  keys: { jwksUrl: string; timeoutMs: number } | StaticJwtKey;
  issuers: string[];
  audiences: string[];
  algorithms: string[];
  clockSkewSeconds: number;
  /** The claim holding the user id: a claim name, then `.`-separated keys inside it. */
  userClaim: string;
};

/** What a JWT says once checked: its user id and expiry, or why it is refused (401), or that its keys cannot be had (503). */
export type JwtOutcome =
  { kind: 'verified'; userId: number; expiresAt: Date } | { kind: 'refused'; reason: string } | { kind: 'unavailable'; reason: string };

/** After the key set's URL failed, how long the last good set is used before the URL is tried again (as jose's cooldown). */
const RETRY_AFTER_FAILURE_MS = 30_000;

/**
 * After it failed while no set was ever fetched, how long every request is answered 503 at once before the
 * URL is tried again: a provider down at start gets one fetch per pause, not one per request (docs/identity.md).
 */
const FIRST_FETCH_RETRY_MS = 5_000;

/** A compact JWS: three base64url parts. Anything else in a Bearer header is the gateway's own token. */
export const looksLikeJwt = (value: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(value);

export function jwtVerifier(settings: JwtSettings) {
  const keys = 'jwksUrl' in settings.keys ? keySetAt(new URL(settings.keys.jwksUrl), settings.keys.timeoutMs) : staticKey(settings.keys);
  return async (jwt: string): Promise<JwtOutcome> => {
    let payload: JWTPayload;
    try {
      // Only the algorithms the key can verify are listed (src/auth/identity-settings.ts): jose refuses any other first.
      ({ payload } = await jwtVerify(jwt, keys, {
        algorithms: settings.algorithms,
        issuer: settings.issuers,
        audience: settings.audiences,
        clockTolerance: settings.clockSkewSeconds,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      // Only the key set's outage is not the token's fault; anything else jose throws refuses the token.
      return error instanceof KeySetUnavailable
        ? { kind: 'unavailable', reason: error.reason }
        : { kind: 'refused', reason: reasonOf(error) };
    }
    const userId = parseNumericId(claimAt(payload, settings.userClaim) as string | number);
    if (userId === null) return { kind: 'refused', reason: `the ${settings.userClaim} claim is not a user id` };
    return { kind: 'verified', userId, expiresAt: new Date(payload.exp! * 1_000) };
  };
}

/** The value at `path`: the longest claim name the path starts with, then the keys after it (claim names may hold dots). */
export function claimAt(payload: Record<string, unknown>, path: string): unknown {
  let claim: string | undefined;
  for (const name of Object.keys(payload))
    if ((path === name || path.startsWith(`${name}.`)) && (claim === undefined || name.length > claim.length)) claim = name;
  if (claim === undefined) return undefined;
  let value = payload[claim];
  for (const key of path === claim ? [] : path.slice(claim.length + 1).split('.')) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A static key: a public KeyObject or a secret's bytes, as jose takes them. */
const staticKey = (keys: StaticJwtKey): KeyObject | Uint8Array => ('secret' in keys ? keys.secret : keys.publicKey);

/** The key set cannot be had now (its URL down, slow, or not answering a key set): 503, not the token's fault. */
class KeySetUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`the key set is unavailable: ${reason}`);
  }
}

/**
 * jose's remote key set (fetched on first use, every 10 minutes, and for an unknown `kid` at most once per
 * 30 s), answered from the last set it fetched while its URL cannot be reached.
 */
function keySetAt(url: URL, timeoutMs: number): JWTVerifyGetKey {
  const remote = createRemoteJWKSet(url, { timeoutDuration: timeoutMs, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
  let failedAt = -Infinity;
  /** Why the last fetch failed, for the log line of each request it leaves unverified. */
  let failure = '';
  let lastGood: { jwks: object; keys: JWTVerifyGetKey } | undefined;
  const fromLastGood = (): JWTVerifyGetKey | undefined => {
    const jwks = remote.jwks();
    if (!jwks) return undefined;
    if (lastGood?.jwks !== jwks) lastGood = { jwks, keys: createLocalJWKSet(jwks) };
    return lastGood.keys;
  };
  return async (header, token) => {
    const sinceFailure = Date.now() - failedAt;
    const fallback = sinceFailure < RETRY_AFTER_FAILURE_MS ? fromLastGood() : undefined;
    if (fallback) return keyOrOutage(fallback, header, token, failure);
    // No set yet to fall back on: the URL is not asked again by every request meanwhile (jose would).
    if (sinceFailure < FIRST_FETCH_RETRY_MS) throw new KeySetUnavailable(failure);
    try {
      return await remote(header, token);
    } catch (error) {
      if (!isKeySetFailure(error)) throw error;
      failedAt = Date.now();
      failure = reasonOf(error);
      const keys = fromLastGood();
      if (!keys) throw new KeySetUnavailable(failure);
      return keyOrOutage(keys, header, token, failure);
    }
  };
}

/** A key from the last good set; a `kid` it does not hold cannot be judged while the URL is down: the outage, not a refusal. */
async function keyOrOutage(keys: JWTVerifyGetKey, header: CompactJWSHeaderParameters, token: FlattenedJWSInput, failure: string) {
  try {
    return await keys(header, token);
  } catch (error) {
    if (error instanceof errors.JWKSNoMatchingKey) throw new KeySetUnavailable(failure);
    throw error;
  }
}

/** A failure of jose's remote set to get the key set (its URL down, slow, redirecting or not a key set), not a fault of the token. */
function isKeySetFailure(error: unknown): boolean {
  if (!(error instanceof errors.JOSEError)) return true;
  return error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || error.code === 'ERR_JOSE_GENERIC';
}

/** Which check failed, for the log line: jose's code, and the claim for a claim check (never the token). */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTClaimValidationFailed || error instanceof errors.JWTExpired)
    return `${error.code} (${error.claim}: ${error.reason})`;
  if (error instanceof errors.JOSEError) return error.code;
  return (error as Error)?.name ?? 'Error';
}
