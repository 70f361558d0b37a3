import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

// The school platform's identity provider, as the gateway meets it in production (docs/identity.md): a
// JSON Web Key Set at a URL (served here, on loopback, by the bench process) and RS256 JWTs signed with its
// private key. The gateway child is pointed at it by AUTH_JWT_JWKS_URL and asks for the set on first use.

const ISSUER = 'https://platform.bench.test';
const AUDIENCE = 'lessons-gateway';
const ALGORITHM = 'RS256';
const KID = 'bench-rs256';

export type IdentityProvider = {
  /** The gateway's settings for it: JWTs verified against its key set, the other AUTH_* settings at their defaults. */
  env: { AUTH_JWT_JWKS_URL: string; AUTH_JWT_ISSUER: string; AUTH_JWT_AUDIENCE: string };
  /** A JWT for `userId` (in `sub`), expiring an hour from now. */
  jwtFor(userId: number): Promise<string>;
  /** How many times the key set was asked for so far. */
  fetches(): number;
  close(): Promise<void>;
};

export async function startIdentityProvider(): Promise<IdentityProvider> {
  const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const body = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: KID, alg: ALGORITHM, use: 'sig' }] });
  let fetches = 0;
  const server = createServer((_request, response) => {
    fetches += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    env: { AUTH_JWT_JWKS_URL: `http://127.0.0.1:${port}/.well-known/jwks.json`, AUTH_JWT_ISSUER: ISSUER, AUTH_JWT_AUDIENCE: AUDIENCE },
    jwtFor: (userId) =>
      new SignJWT({ sub: String(userId) })
        .setProtectedHeader({ alg: ALGORITHM, kid: KID, typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey),
    fetches: () => fetches,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
