import type { Database, Db, SqlRead } from '../db/client.ts';
import type { Viewer } from '../auth/viewer.ts';
import { resolveViewer } from '../auth/viewer.ts';
import { activityLoaders } from '../modules/activities/loaders.ts';
import { classroomActivityLoaders } from '../modules/classroom-activities/loaders.ts';
import { userLoaders } from '../modules/users/loaders.ts';
import { loadersOnFirstUse } from './load.ts';

export type Services = {
  /** Where follow-up links point (SPEC §4). */
  appUrl: string;
};

/** Built once per request, for /graphql and for a REST route alike. */
export type GraphQLContext = {
  db: Db;
  /** Driver-level reads for the hot paths (see SqlRead). */
  read: SqlRead;
  viewer: Viewer;
  loaders: ReturnType<typeof createLoaders>;
  services: Services;
};

export const createLoaders = loadersOnFirstUse({
  ...activityLoaders,
  ...classroomActivityLoaders,
  ...userLoaders,
});

export async function createContext(database: Pick<Database, 'prisma' | 'read'>, services: Services, authorization: string | undefined): Promise<GraphQLContext> {
  const db = database.prisma;
  return { db, read: database.read, viewer: await resolveViewer(database.read, authorization), loaders: createLoaders(db), services };
}
