import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, ids } from '../../kit/fixture.ts';
import { freshTarget, runCommand, type Target } from '../../kit/commands.ts';
import { graphql } from '../../kit/gql/index.ts';

// `npm run token:create -- --user ID [--expires-in-days N]`, run for real; the token it prints then signs
// the user in. An embedded data folder can be opened by one process at a time: every gateway is closed
// before the next command runs.

const SLOW = 240_000;
const VIEWER_ID = graphql(`query ViewerId { viewer { id } }`);

let target: Target;
beforeAll(async () => {
  target = await freshTarget();
  const path = await target.writeJson('data.json', fixture());
  const imported = await runCommand('import', [path], target.env);
  expect(imported.code).toBe(0);
}, SLOW);
afterAll(() => target?.dispose());

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('npm run token:create', () => {
  it(
    'prints a token alone on stdout; it signs the user in, and only its hash is stored',
    async () => {
      const result = await runCommand('token-create', ['--user', String(ids.owner)], target.env);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^\S{32,}\n$/);
      const token = result.stdout.trim();
      // What a person needs to know goes to stderr.
      expect(result.stderr).toContain(String(ids.owner));
      expect(result.stderr).not.toContain(token);

      await target.withGateway(async (gateway) => {
        const viewer = await gateway.graphql(graphql(`query ViewerName { viewer { id name } }`), {}, token);
        expect(viewer.errors).toBeUndefined();
        expect(viewer.data).toEqual({ viewer: { id: String(ids.owner), name: 'Ada Park' } });

        const everything = await gateway.snapshot();
        expect(everything).not.toContain(token);
        expect(everything).toContain(sha256(token));
        const rows = await gateway.database.prisma.$queryRawUnsafe<{ user_id: number; expires_at: Date | null; revoked_at: Date | null }[]>(
          'SELECT user_id, expires_at, revoked_at FROM access_tokens WHERE token_hash = $1',
          sha256(token),
        );
        expect(rows).toEqual([{ user_id: ids.owner, expires_at: null, revoked_at: null }]);
      });
    },
    SLOW,
  );

  it(
    'makes a new token each time, and old ones keep working',
    async () => {
      const first = (await runCommand('token-create', ['--user', String(ids.staff)], target.env)).stdout.trim();
      const second = (await runCommand('token-create', ['--user', String(ids.staff)], target.env)).stdout.trim();
      expect(first).not.toBe(second);
      await target.withGateway(async (gateway) => {
        for (const token of [first, second]) {
          expect((await gateway.graphql(graphql(`query ViewerRole { viewer { id role } }`), {}, token)).data).toEqual({
            viewer: { id: String(ids.staff), role: 'STAFF' },
          });
        }
      });
    },
    SLOW,
  );

  it(
    'sets an expiry with --expires-in-days; an expired token is refused',
    async () => {
      const result = await runCommand('token-create', ['--user', String(ids.coteacher), '--expires-in-days', '30'], target.env);
      expect(result.code).toBe(0);
      const token = result.stdout.trim();
      await target.withGateway(async (gateway) => {
        expect((await gateway.graphql(VIEWER_ID, {}, token)).data).toEqual({ viewer: { id: String(ids.coteacher) } });
        const [row] = await gateway.database.prisma.$queryRawUnsafe<{ expires_at: Date }[]>(
          'SELECT expires_at FROM access_tokens WHERE token_hash = $1',
          sha256(token),
        );
        const days = (row!.expires_at.getTime() - Date.now()) / 86_400_000;
        expect(days).toBeGreaterThan(29.9);
        expect(days).toBeLessThanOrEqual(30);

        // Once the expiry has passed, the token is wrong: UNAUTHENTICATED, not anonymous.
        await gateway.writeTokensOrUsers((prisma) =>
          prisma.$executeRawUnsafe(
            `UPDATE access_tokens SET expires_at = now() - interval '1 minute' WHERE token_hash = $1`,
            sha256(token),
          ),
        );
        const expired = await gateway.graphql(VIEWER_ID, {}, token);
        expect(expired.errors?.map((error) => error.extensions?.code)).toEqual(['UNAUTHENTICATED']);
      });
    },
    SLOW,
  );

  it(
    'refuses an unknown user, or a bad command line, and creates nothing',
    async () => {
      const before = await target.withGateway((gateway) => gateway.snapshot());
      const unknown = await runCommand('token-create', ['--user', '999'], target.env);
      expect(unknown.code).toBe(1);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr).toContain('999');
      expect(unknown.stderr).not.toMatch(/\n\s+at /);

      for (const args of [
        [],
        ['--user'],
        ['--user', 'ada'],
        ['--user', '1', '--expires-in-days', 'soon'],
        ['--user', '1', '--expires-in-days', '0'],
        ['--user', '1', '--admin'],
        ['1'],
      ]) {
        const result = await runCommand('token-create', args, target.env);
        expect(result.code, args.join(' ')).toBe(1);
        expect(result.stdout, args.join(' ')).toBe('');
        expect(result.stderr, args.join(' ')).not.toBe('');
        expect(result.stderr, args.join(' ')).not.toMatch(/\n\s+at /);
      }
      expect(await target.withGateway((gateway) => gateway.snapshot())).toBe(before);
    },
    SLOW * 2,
  );

  it(
    'refuses an option given twice (which user was meant?), and creates nothing',
    async () => {
      const before = await target.withGateway((gateway) => gateway.snapshot());
      const twice = await runCommand('token-create', ['--user', String(ids.owner), '--user', String(ids.staff)], target.env);
      expect(twice.code).toBe(1);
      expect(twice.stdout).toBe('');
      expect(twice.stderr).toMatch(/--user is given more than once/);
      expect(twice.stderr).not.toMatch(/\n\s+at /);
      const days = await runCommand('token-create', ['--user', '1', '--expires-in-days', '3', '--expires-in-days=4'], target.env);
      expect(days.code).toBe(1);
      expect(days.stderr).toMatch(/--expires-in-days is given more than once/);
      expect(await target.withGateway((gateway) => gateway.snapshot())).toBe(before);
    },
    SLOW,
  );
});
