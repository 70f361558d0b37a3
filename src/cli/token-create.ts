import { parseArgs } from 'node:util';
import { issueAccessToken, UnknownUserError } from '../auth/access-tokens.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { parseNumericId } from '../core/validation.ts';
import { runCommand, UsageError } from './run.ts';

// npm run token:create -- --user ID [--expires-in-days N]
// Prints a new access token for the user: the token alone on stdout (so scripts can capture it), the
// rest on stderr. Only its hash is stored.

const usage = 'Usage: npm run token:create -- --user ID [--expires-in-days N]';

function parseCommandLine(): { userId: number; expiresInDays: number | undefined } {
  let parsed;
  try {
    parsed = parseArgs({
      options: { user: { type: 'string' }, 'expires-in-days': { type: 'string' } },
      strict: true,
      allowPositionals: false,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
  // parseArgs keeps the last of a repeated option: `--user 1 --user 2` must not quietly mean user 2.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given more than once\n${usage}`);
    seen.add(token.name);
  }
  const values: { user?: string; 'expires-in-days'?: string } = parsed.values;
  if (values.user === undefined) throw new UsageError(`--user is required\n${usage}`);
  const userId = parseNumericId(values.user);
  if (userId === null) throw new UsageError(`--user must be a numeric user id; got ${JSON.stringify(values.user)}`);
  const days = values['expires-in-days'];
  let expiresInDays: number | undefined;
  if (days !== undefined) {
    expiresInDays = /^\d+$/.test(days) ? Number(days) : NaN;
    if (!Number.isSafeInteger(expiresInDays) || expiresInDays < 1 || expiresInDays > 36_500)
      throw new UsageError(`--expires-in-days must be a whole number of days from 1 to 36500; got ${JSON.stringify(days)}`);
  }
  return { userId, expiresInDays };
}

async function main(): Promise<void> {
  const { userId, expiresInDays } = parseCommandLine();
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const { id, token, user, expiresAt } = await issueAccessToken(database.prisma, { userId, expiresInDays });
    process.stderr.write(
      `Created access token ${id} for user ${user.id} (${user.name}, ${user.role}), ${expiresAt ? `expiring ${expiresAt.toISOString()}` : 'not expiring'}. It is shown only once:\n`,
    );
    process.stdout.write(`${token}\n`);
  } finally {
    await database.close();
  }
}

runCommand(main, [UnknownUserError]);
