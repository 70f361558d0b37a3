import { readFile } from 'node:fs/promises';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { inTransaction } from '../db/transaction.ts';
import { ImportError, importData } from '../import/import-data.ts';
import { runCommand, UsageError } from './run.ts';

// npm run db:import -- FILE.json: loads the import format (docs/contract.md, Running it) in one transaction,
// after pending migrations. A bad file changes nothing and exits 1 naming the record and field.

const usage = 'Usage: npm run db:import -- FILE.json';

/**
 * Where the first byte that is not UTF-8 is: every character before it was read as it is written, so their
 * UTF-8 lengths add up to its offset; a U+FFFD there that the file does not hold marks it.
 */
function firstInvalidByte(bytes: Buffer): number {
  let offset = 0;
  for (const character of new TextDecoder('utf-8').decode(bytes)) {
    const code = character.codePointAt(0)!;
    if (code === 0xfffd && !bytes.subarray(offset, offset + 3).equals(Buffer.from([0xef, 0xbf, 0xbd]))) return offset;
    offset += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return offset;
}

/** The file's text: refused when it is not UTF-8, rather than read with U+FFFD in place of what it holds. */
function utf8(file: string, bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new UsageError(`${file} is not valid UTF-8 (at byte offset ${firstInvalidByte(bytes)}): save it as UTF-8; nothing was imported`);
  }
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = utf8(file, await readFile(file));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]!.startsWith('-')) throw new UsageError(usage);
  const file = args[0]!;
  const config = loadConfig();
  const input = await readJson(file);
  const database = await openDatabase(config);
  try {
    const counts = await inTransaction(database.prisma, (tx) => importData(tx, input));
    const summary = Object.entries(counts)
      .map(([list, count]) => `${count} ${list}`)
      .join(', ');
    process.stdout.write(`Imported ${file}: ${summary}\n`);
  } catch (error) {
    if (error instanceof ImportError) throw new ImportError(`${file} was not imported (nothing was written):\n${error.message}`);
    throw error;
  } finally {
    await database.close();
  }
}

runCommand(main, [ImportError]);
