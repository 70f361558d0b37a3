// Apollo's automatic persisted queries name a document by `extensions.persistedQuery.sha256Hash`: read here
// only, for the trusted documents (trusted-documents.ts, route.ts) and the public reads' tags (public-reads.ts).

/** A request's `extensions`: an object as a body carries it, or the JSON text of a query string (undefined when not JSON). */
export function extensionsOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** The persisted query hash `extensions` (an object, or JSON text) names, as sent (not checked to be a string). */
export function persistedQueryHash(extensions: unknown): unknown {
  const parsed = extensionsOf(extensions);
  if (!parsed || typeof parsed !== 'object') return undefined;
  const persistedQuery = (parsed as { persistedQuery?: unknown }).persistedQuery;
  return persistedQuery && typeof persistedQuery === 'object' ? (persistedQuery as { sha256Hash?: unknown }).sha256Hash : undefined;
}

/** `extensions` (an object) without its persisted query: once a listed text stands in, the list vouches for it, not the hash. */
export function withoutPersistedQuery(extensions: unknown): unknown {
  if (!extensions || typeof extensions !== 'object') return extensions;
  const { persistedQuery: _persistedQuery, ...rest } = extensions as Record<string, unknown>;
  return rest;
}
