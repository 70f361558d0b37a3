import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../kit/commands.ts';
import { ids, names, tokens } from '../../kit/fixture.ts';
import { gatewayForTests, startGateway, type Gateway } from '../../kit/gateway.ts';
import { errorCodes } from '../../kit/graphql.ts';
import { cutListeners, startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';

// Each instance remembers the tokens it verified a moment ago (src/auth/token-cache.ts): a request with
// such a token reads no token from the database. Whatever makes a token invalid or changes its user is
// seen at once, on this instance and on every other one on the database (README, Performance; SECURITY.md).

const VIEWER = '{ viewer { id name role } }';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const onServer = Boolean(process.env.DATABASE_URL);

/** The answer to `{ viewer }` with `token`, and the SQL statements it cost. */
async function viewerWith(gateway: Gateway, token: string) {
  const before = gateway.statements();
  const answer = await gateway.graphql(VIEWER, {}, token);
  return { answer, statements: gateway.statements() - before };
}

async function expectCached(gateway: Gateway, token: string) {
  await viewerWith(gateway, token);
  const again = await viewerWith(gateway, token);
  expect(again.answer.errors).toBeUndefined();
  expect(again.statements).toBe(0);
}

describe('on one instance', () => {
  const gateway = gatewayForTests();

  it('a token verified a moment ago costs no statement; an unknown one is read every time', async () => {
    const first = await viewerWith(gateway, tokens.owner);
    expect(first.answer.data).toEqual({ viewer: { id: String(ids.owner), name: names.owner, role: 'TEACHER' } });
    expect(first.statements).toBe(1);
    const second = await viewerWith(gateway, tokens.owner);
    expect(second.answer.data).toEqual(first.answer.data);
    expect(second.statements).toBe(0);

    for (let i = 0; i < 2; i += 1) {
      const unknown = await viewerWith(gateway, 'lgw_not-a-token-of-this-database');
      expect(errorCodes(unknown.answer)).toEqual(['UNAUTHENTICATED']);
      expect(unknown.statements).toBe(1);
    }
  });

  it.each([
    ['revoked', `UPDATE access_tokens SET revoked_at = now() WHERE token_hash = $1`],
    ['expired', `UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`],
    ['deleted', `DELETE FROM access_tokens WHERE token_hash = $1`],
    ['deleted with its user', `DELETE FROM users WHERE id = (SELECT user_id FROM access_tokens WHERE token_hash = $1)`],
  ])('a cached token %s is refused at the next request', async (_what, sql) => {
    await expectCached(gateway, tokens.coteacher);
    await gateway.writeTokensOrUsers((prisma) => prisma.$executeRawUnsafe(sql, sha256(tokens.coteacher)));
    const after = await viewerWith(gateway, tokens.coteacher);
    expect(errorCodes(after.answer)).toEqual(['UNAUTHENTICATED']);
    // Other tokens are unaffected.
    expect((await viewerWith(gateway, tokens.owner)).answer.data.viewer.id).toBe(String(ids.owner));
  });

  it("a change to a cached token's user is seen at the next request", async () => {
    await expectCached(gateway, tokens.staff);
    await gateway.writeTokensOrUsers((prisma) =>
      prisma.user.update({ where: { id: ids.staff }, data: { role: 'teacher', name: 'Sam Teacher' } }),
    );
    const after = await viewerWith(gateway, tokens.staff);
    expect(after.answer.data).toEqual({ viewer: { id: String(ids.staff), name: 'Sam Teacher', role: 'TEACHER' } });
    expect(after.statements).toBe(1);
    // Staff no more: refused where staff only may go.
    const create = await gateway.graphql('mutation { createActivity(input: { name: "x" }) { id } }', {}, tokens.staff);
    expect(errorCodes(create)).toEqual(['FORBIDDEN']);
  });

  it("an expiry passing while the token is cached is the cache's own check", async () => {
    await gateway.writeTokensOrUsers((prisma) =>
      prisma.$executeRawUnsafe(
        `UPDATE access_tokens SET expires_at = now() + interval '3 seconds' WHERE token_hash = $1`,
        sha256(tokens.owner),
      ),
    );
    await expectCached(gateway, tokens.owner);
    const expiresAt = (await gateway.database.prisma.accessToken.findUnique({ where: { tokenHash: sha256(tokens.owner) } }))!.expiresAt!;
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 100));
    expect(errorCodes((await viewerWith(gateway, tokens.owner)).answer)).toEqual(['UNAUTHENTICATED']);
  });
});

describe('TOKEN_CACHE_TTL', () => {
  const gateways: Gateway[] = [];
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
  });

  it('bounds how long a token is remembered; 0 remembers none', async () => {
    const short = await startGateway({ TOKEN_CACHE_TTL: '300ms' });
    gateways.push(short);
    await short.reset();
    await expectCached(short, tokens.owner);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await viewerWith(short, tokens.owner)).statements).toBe(1);

    const off = await startGateway({ TOKEN_CACHE_TTL: '0' });
    gateways.push(off);
    await off.reset();
    for (let i = 0; i < 3; i += 1) expect((await viewerWith(off, tokens.owner)).statements).toBe(1);
  });
});

describe.skipIf(!onServer)('on a PostgreSQL server, across instances', () => {
  const gateways: Gateway[] = [];
  afterAll(async () => {
    for (const gateway of gateways.reverse()) await gateway.close();
  });

  it('a token cached by instance B and revoked with token:revoke is refused by B at once', async () => {
    const a = await startGateway();
    gateways.push(a);
    const b = await startGateway({ DATABASE_URL: a.databaseUrl!, TOKEN_CACHE_TTL: '1 minute' });
    gateways.push(b);
    await a.reset();

    await expectCached(b, tokens.owner);
    await expectCached(a, tokens.owner);
    const revoked = await runCommand('token-revoke', [tokens.owner], { DATABASE_URL: a.databaseUrl! });
    expect(revoked.code).toBe(0);

    expect(errorCodes((await viewerWith(b, tokens.owner)).answer)).toEqual(['UNAUTHENTICATED']);
    expect(errorCodes((await viewerWith(a, tokens.owner)).answer)).toEqual(['UNAUTHENTICATED']);
    expect((await viewerWith(b, tokens.coteacher)).answer.data.viewer.id).toBe(String(ids.coteacher));
  });

  it('a revocation made while the listening connection is down is not missed: the cache is emptied', async () => {
    const gateway: ListeningGateway = await startListeningGateway({ TOKEN_CACHE_TTL: '1 minute' });
    gateways.push(gateway);
    await gateway.reset();
    await expectCached(gateway, tokens.owner);

    const admin = new pg.Client({ connectionString: gateway.databaseUrl });
    await admin.connect();
    try {
      // The listener is killed and the token revoked before it can be back (its first retry waits 100 ms):
      // the revocation's notification is lost.
      expect(await cutListeners(admin)).toBe(1);
      await admin.query('UPDATE access_tokens SET revoked_at = now() WHERE token_hash = $1', [sha256(tokens.owner)]);
      await gateway.waitForLog('lesson events: lost the listening connection, reconnecting');
      await gateway.waitForLog('lesson events: listening', 2);
    } finally {
      await admin.end();
    }
    expect(errorCodes((await viewerWith(gateway, tokens.owner)).answer)).toEqual(['UNAUTHENTICATED']);
    // Listening again: tokens are remembered again.
    await expectCached(gateway, tokens.coteacher);
  });

  it('while the listening connection is down, no token is remembered', async () => {
    const gateway: ListeningGateway = await startListeningGateway({ TOKEN_CACHE_TTL: '1 minute' });
    gateways.push(gateway);
    await gateway.reset();
    // On the server's own database: a database cannot refuse connections while connected to itself.
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      // Refuse the listener's reconnection for a while: its database no longer accepts new connections
      // (the pool keeps the ones it has).
      const database = new URL(gateway.databaseUrl!).pathname.slice(1);
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
      try {
        await cutListeners(admin, database);
        await gateway.waitForLog('lesson events: lost the listening connection, reconnecting');
        for (let i = 0; i < 3; i += 1) {
          const answer = await viewerWith(gateway, tokens.owner);
          expect(answer.answer.data?.viewer?.id).toBe(String(ids.owner));
          expect(answer.statements).toBe(1);
        }
      } finally {
        await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      }
      await waitFor(() => gateway.logs().filter((line) => line.msg === 'lesson events: listening').length >= 2, 'listening again');
    } finally {
      await admin.end();
    }
    await expectCached(gateway, tokens.owner);
  });
});
