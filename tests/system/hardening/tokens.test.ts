import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, ids, tokens } from '../../kit/fixture.ts';
import { startGateway } from '../../kit/gateway.ts';
import { freshTarget, runCommand, type Target } from '../../kit/commands.ts';
import { graphql } from '../../kit/gql/index.ts';

// `npm run token:revoke -- ID | PREFIX`, run for real; revoked and expired tokens are 401 (never anonymous).

const SLOW = 240_000;
const VIEWER_ID = graphql(`query ViewerId { viewer { id } }`);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

let target: Target;
beforeAll(async () => {
  target = await freshTarget();
  const imported = await runCommand('import', [await target.writeJson('data.json', fixture())], target.env);
  expect(imported.code).toBe(0);
}, SLOW);
afterAll(() => target?.dispose());

describe('npm run token:revoke', () => {
  it(
    'revokes by prefix and by id; the tokens are then 401 on REST and GraphQL, others still work',
    async () => {
      const created = [];
      for (let i = 0; i < 2; i += 1) {
        const result = await runCommand('token-create', ['--user', String(ids.owner)], target.env);
        expect(result.code).toBe(0);
        const id = Number(/access token (\d+)/.exec(result.stderr)?.[1]);
        expect(id).toBeGreaterThan(0);
        created.push({ token: result.stdout.trim(), id });
      }
      const [byPrefix, byId] = created as [{ token: string; id: number }, { token: string; id: number }];

      const prefix = byPrefix.token.slice(0, 12); // lgw_ + 8 characters, as an operator sees it
      const revokedByPrefix = await runCommand('token-revoke', [prefix], target.env);
      expect(revokedByPrefix.code).toBe(0);
      expect(revokedByPrefix.stderr).toContain(`Revoked access token ${byPrefix.id}`);
      expect(revokedByPrefix.stderr + revokedByPrefix.stdout).not.toContain(byPrefix.token);

      const revokedById = await runCommand('token-revoke', [String(byId.id)], target.env);
      expect(revokedById.code).toBe(0);
      expect(revokedById.stderr).toContain(`Revoked access token ${byId.id}`);

      const unknown = await runCommand('token-revoke', ['lgw_zzzzzzzz'], target.env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/No access token has prefix lgw_zzzzzzzz/);
      const bad = await runCommand('token-revoke', ['-x'], target.env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/Usage/);

      const gateway = await startGateway(target.env);
      try {
        for (const { token } of created) {
          const rest = await gateway.rest('GET', `/api/v1/classroom_activities/${ids.classroomActivity}/student_names`, { token });
          expect(rest.status).toBe(401);
          expect(rest.body.meta.status).toBe('unauthorized');
          const graphql = await gateway.graphql(VIEWER_ID, {}, token);
          expect(graphql.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
        }
        // The prefix is stored, the token is not.
        const rows = await gateway.database.prisma.$queryRawUnsafe<{ token_prefix: string | null; revoked_at: Date | null }[]>(
          'SELECT token_prefix, revoked_at FROM access_tokens WHERE token_hash = $1',
          sha256(byPrefix.token),
        );
        expect(rows).toEqual([{ token_prefix: byPrefix.token.slice(4, 12), revoked_at: expect.any(Date) }]);
        expect(await gateway.snapshot()).not.toContain(byPrefix.token);
        const still = await gateway.graphql(VIEWER_ID, {}, tokens.owner);
        expect(still.data).toEqual({ viewer: { id: String(ids.owner) } });
      } finally {
        await gateway.close();
      }
    },
    SLOW,
  );
});

describe('expired tokens', () => {
  it(
    'are 401 on REST and UNAUTHENTICATED on GraphQL',
    async () => {
      const gateway = await startGateway();
      try {
        await gateway.reset();
        const path = `/api/v1/classroom_activities/${ids.classroomActivity}/student_names`;
        expect((await gateway.rest('GET', path, { token: tokens.coteacher })).status).toBe(200);
        await gateway.writeTokensOrUsers((prisma) =>
          prisma.$executeRawUnsafe(
            `UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
            sha256(tokens.coteacher),
          ),
        );
        const rest = await gateway.rest('GET', path, { token: tokens.coteacher });
        expect(rest.status).toBe(401);
        expect(rest.body.meta.status).toBe('unauthorized');
        const graphql = await gateway.graphql(VIEWER_ID, {}, tokens.coteacher);
        expect(graphql.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
        // Even on an anonymous read: a wrong token is never treated as anonymous.
        expect((await gateway.rest('GET', '/api/v1/activities/uids_and_flags', { token: tokens.coteacher })).status).toBe(401);
      } finally {
        await gateway.close();
      }
    },
    SLOW,
  );
});
