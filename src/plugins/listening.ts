import type { FastifyInstance } from 'fastify';
import { listenForTokenChanges, type TokenCache } from '../auth/token-cache.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { logReplicaChanges } from '../db/replicas.ts';
import type { CatalogueVersion } from '../http/catalogue-version.ts';
import type { PublicCache } from '../http/public-cache.ts';
import { listenForCatalogueChanges } from '../modules/activities/catalogue-version.ts';
import { lessonEventHub, listenForLessonEvents, pruneLessonEvents } from '../modules/classroom-activities/lesson-events.ts';

// This instance hears every committed lesson event, token change and catalogue change on the database's one
// listening connection, and fans them out to its subscribers, its token cache and its public reads' tags.

export type ListeningDeps = {
  config: Config;
  database: Database;
  tokenCache: TokenCache;
  catalogue: CatalogueVersion;
  /** Absent (PUBLIC_CACHE_MAX_AGE=0), the catalogue's changes are not listened for. */
  cache: PublicCache | undefined;
};

/** Returns the lessons' event hub, which the subscriptions follow; everything stops when the app closes. */
export async function hearChanges(app: FastifyInstance, { config, database, tokenCache, catalogue, cache }: ListeningDeps) {
  const replicas = database.replicas;
  if (replicas) logReplicaChanges(replicas, app.log);
  const lessonEvents = lessonEventHub(database, replicas && ((classroomActivityId: number) => replicas.delivered(classroomActivityId)));
  const stopHearingLessons = await listenForLessonEvents(database, lessonEvents, app.log);
  const stopPruningLessons = pruneLessonEvents(database, config.lessonEventsRetentionMs, app.log);
  const stopHearingTokens = await listenForTokenChanges(database, tokenCache);
  const stopHearingCatalogue = cache ? await listenForCatalogueChanges(database, catalogue) : async () => {};
  app.addHook('onClose', async () => {
    await stopPruningLessons();
    await stopHearingLessons();
    await stopHearingTokens();
    await stopHearingCatalogue();
  });
  return lessonEvents;
}
