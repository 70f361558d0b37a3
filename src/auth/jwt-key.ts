import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

// AUTH_JWT_KEY, read and imported once at start (docs/identity.md, JWTs): a public key in any PEM form Node
// reads (SPKI, PKCS#1, an X.509 certificate), or a shared secret; and which JWS algorithms it can verify,
// so that a token naming another is refused, and a key that verifies nothing stops the start.

/** A key as jose takes it: a public KeyObject, or a secret's bytes. */
export type StaticJwtKey = { publicKey: KeyObject } | { secret: Uint8Array };

/** The key, the algorithms it verifies, and what it is (for messages: never the key itself). */
export type ReadJwtKey = { keys: StaticJwtKey; verifies: readonly string[]; described: string } | { problem: string };

/** Every asymmetric JWS algorithm the gateway accepts: what a JWKS (public keys) may verify. */
export const PUBLIC_KEY_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

const SECRET_ALGORITHMS = ['HS256', 'HS384', 'HS512'];
const MIN_SECRET_BYTES = 32;
/** jose refuses RSA keys shorter than this for RS* and PS*. */
const MIN_RSA_BITS = 2048;
/** The curve each ECDSA algorithm requires (Node's names). */
const EC_ALGORITHM_OF_CURVE: Record<string, { algorithm: string; curve: string }> = {
  prime256v1: { algorithm: 'ES256', curve: 'P-256' },
  secp384r1: { algorithm: 'ES384', curve: 'P-384' },
  secp521r1: { algorithm: 'ES512', curve: 'P-521' },
};

/** `value` as set: a PEM (its line breaks may be written `\n`, for one-line environment files), else a shared secret. */
export function readJwtKey(value: string): ReadJwtKey {
  const text = value.replace(/\\n/g, '\n').trim();
  if (!text.startsWith('-----BEGIN')) {
    if (Buffer.byteLength(value) < MIN_SECRET_BYTES)
      return { problem: `AUTH_JWT_KEY: a shared secret must be at least ${MIN_SECRET_BYTES} bytes` };
    return { keys: { secret: new TextEncoder().encode(value) }, verifies: SECRET_ALGORITHMS, described: 'a shared secret' };
  }
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text) || readsAsPrivateKey(text))
    return {
      problem: "AUTH_JWT_KEY is a private key: a public key is expected (the identity provider's public key or certificate)",
    };
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey(text);
  } catch {
    return {
      problem:
        'AUTH_JWT_KEY is not a PEM public key (-----BEGIN PUBLIC KEY-----, -----BEGIN RSA PUBLIC KEY----- or -----BEGIN CERTIFICATE-----)',
    };
  }
  const found = algorithmsOf(publicKey);
  return 'problem' in found ? found : { keys: { publicKey }, ...found };
}

function readsAsPrivateKey(text: string): boolean {
  try {
    createPrivateKey(text);
    return true;
  } catch {
    return false;
  }
}

/** The algorithms jose verifies with this public key (the key type, its curve, its size), or why none. */
function algorithmsOf(key: KeyObject): { verifies: readonly string[]; described: string } | { problem: string } {
  const { asymmetricKeyType: type, asymmetricKeyDetails: details } = key;
  if (type === 'rsa') {
    const bits = details?.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS) return { problem: `AUTH_JWT_KEY is an RSA key of ${bits} bits: at least ${MIN_RSA_BITS} are required` };
    return { verifies: PUBLIC_KEY_ALGORITHMS.filter((alg) => /^(RS|PS)/.test(alg)), described: 'an RSA public key' };
  }
  if (type === 'ec' && details?.namedCurve && EC_ALGORITHM_OF_CURVE[details.namedCurve]) {
    const { algorithm, curve } = EC_ALGORITHM_OF_CURVE[details.namedCurve]!;
    return { verifies: [algorithm], described: `an EC ${curve} public key` };
  }
  if (type === 'ed25519') return { verifies: ['EdDSA'], described: 'an Ed25519 public key' };
  const described = type === 'ec' ? `an EC ${details?.namedCurve ?? 'unknown-curve'}` : `an ${type ?? 'unknown'}`;
  return {
    problem: `AUTH_JWT_KEY is ${described} public key, which no JWS algorithm the gateway accepts verifies (RSA of ${MIN_RSA_BITS} bits or more, EC P-256, P-384 or P-521, Ed25519)`,
  };
}
