import { readFile } from 'node:fs/promises';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { inTransaction } from '../db/transaction.ts';
import { ImportError, importData } from '../import/import-data.ts';
import { runCommand, UsageError } from './run.ts';

// npm run db:import -- FILE.json: loads the import format (docs/contract.md, Running it) in one transaction,
// after pending migrations. A bad file changes nothing and exits 1 naming the record and field.

const usage = 'Usage: npm run db:import -- FILE.json';

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
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
