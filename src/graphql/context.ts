import type { Database, Db, SqlRead } from '../db/client.ts';
import type { Viewer } from '../auth/viewer.ts';
import type { TokenCache } from '../auth/token-cache.ts';
import { resolveViewer } from '../auth/viewer.ts';
import { activityLoaders } from '../modules/activities/loaders.ts';
import type { LessonEventHub } from '../modules/classroom-activities/lesson-events.ts';
import { classroomActivityLoaders } from '../modules/classroom-activities/loaders.ts';
import { userLoaders } from '../modules/users/loaders.ts';
import { loadersOnFirstUse } from '../core/load.ts';

/** Configuration the resolvers need. */
export type ContextSettings = {
  /** Where follow-up links point (docs/contract.md, finish_lesson). */
  appUrl: string;
  /** This instance's live lesson events (absent where nothing subscribes: the CLI, the REST shim). */
  lessonEvents?: LessonEventHub;
  /** This instance's tokens verified a moment ago (absent: every request with a token reads it). */
  tokenCache?: TokenCache;
};

/** Built once per request, for /graphql and for a REST route alike. */
export type GraphQLContext = {
  db: Db;
  /** Driver-level reads for the hot paths (see SqlRead). */
  read: SqlRead;
  viewer: Viewer;
  loaders: ReturnType<typeof createLoaders>;
  settings: ContextSettings;
};

export const createLoaders = loadersOnFirstUse({
  ...activityLoaders,
  ...classroomActivityLoaders,
  ...userLoaders,
});

export async function createContext(
  database: Pick<Database, 'prisma' | 'read'>,
  settings: ContextSettings,
  authorization: string | undefined,
): Promise<GraphQLContext> {
  const db = database.prisma;
  return {
    db,
    read: database.read,
    viewer: await resolveViewer(database.read, authorization, settings.tokenCache),
    loaders: createLoaders(db),
    settings,
  };
}
