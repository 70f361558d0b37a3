import { createPrivateKey, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

// The main application's side of identity, on loopback: a JWKS server whose keys the test generates and
// rotates (and takes down, or slows), JWTs signed with them, and a session webhook whose answers the test sets.

export const ISSUER = 'https://platform.school.test';
export const AUDIENCE = 'lessons-gateway';

export type SigningKey = { kid: string; alg: string; privateKey: CryptoKey; jwk: JWK };

export async function signingKey(
  alg: 'RS256' | 'RS384' | 'ES256' | 'EdDSA',
  kid = `${alg}-${Math.random().toString(36).slice(2, 8)}`,
): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** A JWT for `sub` (the user id), issued now for an hour unless `claims` or `header` say otherwise. */
export async function jwtFor(
  key: { privateKey: CryptoKey | KeyObject | Uint8Array; alg: string; kid?: string },
  claims: JWTPayload & { sub?: string } = {},
  { header = {}, expiresIn = '1h' }: { header?: Record<string, unknown>; expiresIn?: string | number | null } = {},
): Promise<string> {
  const jwt = new SignJWT({ iss: ISSUER, aud: AUDIENCE, ...claims })
    .setProtectedHeader({ alg: key.alg, ...(key.kid ? { kid: key.kid } : {}), ...header })
    .setIssuedAt();
  if (expiresIn !== null) jwt.setExpirationTime(expiresIn);
  return jwt.sign(key.privateKey);
}

/**
 * An X.509 certificate of an EC P-256 signing key, and that key, as a platform may publish and keep them
 * (made once: `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 36500`).
 */
export function platformCertificate(): { certificate: string; privateKeyPem: string; signingKey: { privateKey: KeyObject; alg: 'ES256' } } {
  const read = (name: string) => readFileSync(new URL(`./keys/${name}`, import.meta.url), 'utf8');
  const privateKeyPem = read('platform-certificate.key.pem');
  return {
    certificate: read('platform-certificate.pem'),
    privateKeyPem,
    signingKey: { privateKey: createPrivateKey(privateKeyPem), alg: 'ES256' },
  };
}

/** An unsigned token (`alg: none`), which no verifier may accept. */
export function unsecuredJwt(claims: JWTPayload): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}.`;
}

type Listening = { url: string; close(): Promise<void> };

async function listen(server: Server, path = ''): Promise<Listening> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type JwksServer = Listening & {
  keys: SigningKey[];
  /** Fetches answered so far (whatever they answered). */
  fetches: number;
  /** 'up': the keys; 'down': 503; 'slow': the keys after `slowMs`. */
  state: 'up' | 'down' | 'slow';
  slowMs: number;
};

export async function startJwksServer(keys: SigningKey[]): Promise<JwksServer> {
  const jwks: Omit<JwksServer, keyof Listening> = { keys, fetches: 0, state: 'up', slowMs: 3_000 };
  const server = createServer((_request, response) => {
    jwks.fetches += 1;
    const answer = () => {
      if (jwks.state === 'down') return response.writeHead(503).end('down');
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: jwks.keys.map((key) => key.jwk) }));
    };
    if (jwks.state === 'slow') setTimeout(answer, jwks.slowMs);
    else answer();
  });
  return Object.assign(jwks, await listen(server, '/.well-known/jwks.json'));
}

export type WebhookAnswer = { status: number; body?: unknown; delayMs?: number; headers?: Record<string, string> };

export type SessionWebhook = Listening & {
  /** The answer for each session cookie value; any other gets `{"userId": null}`. */
  answers: Map<string, WebhookAnswer>;
  /** The headers of every call it got. */
  calls: IncomingHttpHeaders[];
};

export async function startSessionWebhook(cookieName: string): Promise<SessionWebhook> {
  const webhook: Omit<SessionWebhook, keyof Listening> = { answers: new Map(), calls: [] };
  const server = createServer((request, response) => {
    webhook.calls.push(request.headers);
    const value = new RegExp(`(?:^|;\\s*)${cookieName}=([^;]*)`).exec(request.headers.cookie ?? '')?.[1];
    const answer = (value !== undefined && webhook.answers.get(value)) || { status: 200, body: { userId: null } };
    setTimeout(() => {
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {}));
    }, answer.delayMs ?? 0);
  });
  return Object.assign(webhook, await listen(server, '/sessions/current'));
}
