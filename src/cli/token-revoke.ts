import { hashToken } from '../auth/tokens.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { runCommand, UsageError } from './run.ts';

// npm run token:revoke -- ID | PREFIX | TOKEN: revokes one access token, at once on every instance (the
// UPDATE's trigger tells each token cache at commit: src/auth/token-cache.ts). A prefix naming more than one
// live token revokes nothing and lists their ids; revoking twice is harmless.

const usage = 'Usage: npm run token:revoke -- TOKEN_ID | TOKEN_PREFIX | TOKEN';

class NotFoundError extends Error {}

type Target = { where: { id: number } | { tokenHash: string } | { tokenPrefix: string }; label: string };

function parseTarget(args: string[]): Target {
  if (args.length !== 1 || args[0]!.startsWith('-') || args[0]!.trim() === '') throw new UsageError(usage);
  const value = args[0]!.trim();
  if (/^\d+$/.test(value)) {
    const id = Number(value);
    if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw new UsageError(`${JSON.stringify(value)} is not a token id`);
    return { where: { id }, label: `id ${id}` };
  }
  const bare = value.startsWith('lgw_') ? value.slice(4) : value;
  if (bare.length > 8) return { where: { tokenHash: hashToken(value) }, label: 'the given token' };
  if (!/^[A-Za-z0-9_-]{8}$/.test(bare))
    throw new UsageError(`A token prefix is the 8 characters after "lgw_"; got ${JSON.stringify(value)}\n${usage}`);
  return { where: { tokenPrefix: bare }, label: `prefix lgw_${bare}` };
}

async function main(): Promise<void> {
  const target = parseTarget(process.argv.slice(2));
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const matches = await database.prisma.accessToken.findMany({
      where: target.where,
      select: { id: true, userId: true, revokedAt: true },
      orderBy: { id: 'asc' },
    });
    if (matches.length === 0) throw new NotFoundError(`No access token has ${target.label}`);
    const live = matches.filter((token) => !token.revokedAt);
    if (live.length > 1)
      throw new NotFoundError(
        `${live.length} live tokens have ${target.label} (ids ${live.map((t) => t.id).join(', ')}); revoke one by id`,
      );
    const token = live[0] ?? matches[0]!;
    if (token.revokedAt) {
      process.stderr.write(`Access token ${token.id} (user ${token.userId}) was already revoked at ${token.revokedAt.toISOString()}\n`);
      return;
    }
    await database.prisma.accessToken.updateMany({ where: { id: token.id, revokedAt: null }, data: { revokedAt: new Date() } });
    process.stderr.write(`Revoked access token ${token.id} of user ${token.userId}\n`);
  } finally {
    await database.close();
  }
}

runCommand(main, [NotFoundError]);
