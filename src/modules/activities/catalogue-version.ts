import type { Database, SqlRead, Statement } from '../../db/client.ts';

// The public catalogue's version (activities and their classifications): a trigger moves it in every
// transaction that writes them and notifies every instance at commit (prisma/migrations/20261210000000_public_catalogue_version).
// Public reads' HTTP tags are made from it (src/http/catalogue-version.ts keeps it in memory).

/** The channel the trigger notifies on; the payload is the new version (digits), or empty when its row is gone. */
export const CATALOGUE_CHANGES_CHANNEL = 'public_catalogue_changes';

const READ_VERSION: Statement = {
  name: 'public_catalogue_version',
  text: 'SELECT version::text AS version FROM public_catalogue_version WHERE id = 1',
};

/** The version now (one statement); undefined when its row is gone. */
export async function readCatalogueVersion(read: SqlRead): Promise<string | undefined> {
  const [row] = await read<{ version: string }>(READ_VERSION, []);
  return row?.version;
}

/** Whoever keeps the version: told of each notification, and of the listener's state. */
export type CatalogueChanges = { changed(payload: string): void; listenerState(state: 'lost' | 'listening'): void };

/**
 * Keeps `version` told of every change the database notifies, on the instance's listening connection;
 * resolves once listening, with the function that stops it.
 */
export function listenForCatalogueChanges(database: Pick<Database, 'listen'>, version: CatalogueChanges): Promise<() => Promise<void>> {
  return database.listen(
    CATALOGUE_CHANGES_CHANNEL,
    (payload) => version.changed(payload),
    (state) => version.listenerState(state),
  );
}
