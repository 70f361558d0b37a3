import type { FastifyReply } from 'fastify';
import type { ConditionalHeaders, PublicCache } from './public-cache.ts';

// The tag and 304 of a public read, the same on /graphql (src/graphql/public-reads.ts) and the REST reads
// (src/rest/plugin.ts): taken before the data is read, so that an answer is never older than its tag.

/** The tag a public read has now (the catalogue's version, and what was asked); undefined when the version cannot be vouched for. */
export async function tagNow(cache: PublicCache, asked: readonly string[]): Promise<string | undefined> {
  const version = await cache.version();
  return version === undefined ? undefined : cache.tagFor(version, asked);
}

/**
 * A 304 with the public headers of `tag`, when the request's If-None-Match names it: `before` the read runs
 * (tags named explicitly only: `*` waits for the answer), or after it answered 200; undefined otherwise.
 */
export function notModified(
  cache: PublicCache,
  headers: ConditionalHeaders,
  reply: FastifyReply,
  tag: string,
  when: 'before' | 'after',
): FastifyReply | undefined {
  if (!(when === 'before' ? cache.namesTag(headers, tag) : cache.notModified(headers, tag))) return undefined;
  cache.markPublic(reply, tag);
  return reply.code(304).send();
}
