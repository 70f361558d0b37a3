import { afterAll, describe, expect, it } from 'vitest';
import { ids, names, tokens } from '../../kit/fixture.ts';
import { gatewayForTests, startGateway, type Gateway } from '../../kit/gateway.ts';
import { errorCodes, expectCached, sha256, viewerWith } from '../../kit/graphql.ts';
import { graphql } from '../../kit/gql/index.ts';

// Each instance remembers the tokens it verified a moment ago (src/auth/token-cache.ts): a request with
// such a token reads no token from the database. Whatever makes a token invalid or changes its user is
// seen at once, on this instance and on every other one on the database (README, Performance; SECURITY.md):
// across instances and through the listener's outages, tests/system/users/token-cache-instances.test.ts.

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
    expect((await viewerWith(gateway, tokens.owner)).answer.data!.viewer!.id).toBe(String(ids.owner));
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
    const create = await gateway.graphql(
      graphql(`mutation CreateActivityX { createActivity(input: { name: "x" }) { id } }`),
      {},
      tokens.staff,
    );
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
