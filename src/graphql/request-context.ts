import type { Viewer } from '../auth/viewer.ts';
import type { Database } from '../db/client.ts';
import type { RequestContext, ModuleSettings } from '../modules/context.ts';

// The context every resolver gets (src/modules/context.ts): built once per request, for /graphql, a REST
// route and a WebSocket subscription alike, once the caller is known.

export function createContext(database: Pick<Database, 'prisma' | 'read'>, settings: ModuleSettings, viewer: Viewer): RequestContext {
  return { db: database.prisma, read: database.read, viewer, scope: new Map(), settings };
}
