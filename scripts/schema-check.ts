import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CriticalityLevel, diff, type Change } from '@graphql-inspector/core';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { buildSchema, printSchema } from 'graphql';
import { format } from 'prettier';
import { SCHEMA_FILES } from '../src/modules/schema-files.ts';

// The public schema's one printed file, and its evolution (docs/schema-evolution.md): schema.graphql is the
// modules' SDL printed (`--print` writes it, the check fails when it is stale); a breaking change since the
// released copy fails unless schema/breaking-changes.json records it with a reason. `--release` moves the copy.

const root = fileURLToPath(new URL('..', import.meta.url));
export const CURRENT = join(root, 'schema.graphql');
export const RELEASED = join(root, 'schema', 'released.graphql');
export const APPROVED = join(root, 'schema', 'breaking-changes.json');

/** A breaking change a reviewer accepted: its type and path as graphql-inspector names them, and why. */
export type Approval = { type: string; path: string; reason: string };

export type SchemaCheck = {
  /** Breaking changes nobody recorded: the check fails on these. */
  unapproved: Change[];
  approved: Change[];
  dangerous: Change[];
  safe: Change[];
  /** Records that are malformed, or match no change (stale): the check fails on these too. */
  badApprovals: string[];
};

export async function compareSchemas(released: string, current: string, approvals: unknown): Promise<SchemaCheck> {
  const badApprovals: string[] = [];
  const list = Array.isArray(approvals) ? approvals : [];
  if (!Array.isArray(approvals)) badApprovals.push('schema/breaking-changes.json must hold a list of {type, path, reason}');
  const valid = list.filter((approval: Partial<Approval>, index): approval is Approval => {
    const ok =
      typeof approval?.type === 'string' &&
      typeof approval.path === 'string' &&
      typeof approval.reason === 'string' &&
      approval.reason.trim() !== '';
    if (!ok) badApprovals.push(`entry ${index}: needs a type, a path and a reason`);
    return ok;
  });
  const changes = await diff(buildSchema(released), buildSchema(current));
  const isApproved = (change: Change) => valid.some((approval) => approval.type === change.type && approval.path === change.path);
  const breaking = changes.filter((change) => change.criticality.level === CriticalityLevel.Breaking);
  for (const approval of valid)
    if (!breaking.some((change) => change.type === approval.type && change.path === approval.path))
      badApprovals.push(`${approval.type} ${approval.path}: no such breaking change (stale: remove it)`);
  return {
    unapproved: breaking.filter((change) => !isApproved(change)),
    approved: breaking.filter(isApproved),
    dangerous: changes.filter((change) => change.criticality.level === CriticalityLevel.Dangerous),
    safe: changes.filter((change) => change.criticality.level === CriticalityLevel.NonBreaking),
    badApprovals,
  };
}

/** The modules' SDL (src/modules/schema-files.ts) as one schema, printed and formatted as the repository keeps it. */
export async function printPublicSchema(): Promise<string> {
  const schema = makeExecutableSchema({ typeDefs: SCHEMA_FILES.map((file) => readFileSync(join(root, file), 'utf8')) });
  return format(printSchema(schema), { parser: 'graphql', filepath: CURRENT });
}

async function main(): Promise<number> {
  const printed = await printPublicSchema();
  if (process.argv.includes('--print')) {
    writeFileSync(CURRENT, printed);
    process.stdout.write('schema.graphql printed from the modules.\n');
    return 0;
  }
  if (readFileSync(CURRENT, 'utf8') !== printed) {
    process.stdout.write("schema.graphql is not the modules' SDL printed: run `npm run schema:print` and commit it.\n");
    return 1;
  }
  if (process.argv.includes('--release')) {
    copyFileSync(CURRENT, RELEASED);
    writeFileSync(APPROVED, '[]\n');
    process.stdout.write('schema/released.graphql is now schema.graphql; schema/breaking-changes.json emptied.\n');
    return 0;
  }
  const result = await compareSchemas(
    readFileSync(RELEASED, 'utf8'),
    readFileSync(CURRENT, 'utf8'),
    JSON.parse(readFileSync(APPROVED, 'utf8')),
  );
  const line = (change: Change) => `  ${change.type} ${change.path ?? ''}: ${change.message}`;
  const print = (title: string, changes: Change[]) =>
    changes.length > 0 && process.stdout.write(`${title}\n${changes.map(line).join('\n')}\n`);
  print('Safe changes since the release:', result.safe);
  print('Dangerous changes (clients may behave differently):', result.dangerous);
  print('Breaking changes recorded with a reason:', result.approved);
  print('BREAKING changes not recorded in schema/breaking-changes.json (record each with a reason, or undo it):', result.unapproved);
  for (const problem of result.badApprovals) process.stdout.write(`schema/breaking-changes.json: ${problem}\n`);
  return result.unapproved.length + result.badApprovals.length > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main();
