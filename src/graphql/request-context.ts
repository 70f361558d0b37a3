import type { TokenCache } from '../auth/token-cache.ts';
import { resolveViewer } from '../auth/viewer.ts';
import type { Database } from '../db/client.ts';
import type { GraphQLContext, ModuleSettings } from '../modules/context.ts';

// The context every resolver gets (src/modules/context.ts), built once per request: for /graphql, a REST
// route and a WebSocket subscription alike.

export async function createContext(
  database: Pick<Database, 'prisma' | 'read'>,
  settings: ModuleSettings,
  authorization: string | undefined,
  tokenCache?: TokenCache,
): Promise<GraphQLContext> {
  return {
    db: database.prisma,
    read: database.read,
    viewer: await resolveViewer(database.read, authorization, tokenCache),
    scope: new Map(),
    settings,
  };
}
