import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import { graphql } from '../../kit/gql/index.ts';
import { startListeningGateway, type ListeningGateway } from '../../kit/live.ts';

// A public read behind a shared cache, as a CDN keeps it (docs/operations.md, HTTP caching): a few lines of
// Node that store what `Cache-Control: public, max-age` allows, per the request headers `Vary` names, and
// revalidate a stale answer with If-None-Match. Its clock is the test's, so max-age passes without waiting.

type Stored = { status: number; headers: Headers; body: string; storedAt: number; maxAgeMs: number; varied: Record<string, string> };

/** A caching proxy in front of `origin` (GET only); `now` is its clock. */
function cachingProxy(origin: string, now: () => number) {
  const stored = new Map<string, Stored>();
  const counts = { fromCache: 0, revalidated: 0, fromOrigin: 0 };
  const variedBy = (names: string[], headers: IncomingHttpHeaders) =>
    Object.fromEntries(names.map((name) => [name, String(headers[name] ?? '')]));
  const server = createServer((request, response) => {
    void (async () => {
      const key = request.url!;
      const forwarded = Object.fromEntries(
        ['authorization', 'accept'].flatMap((name) => (request.headers[name] ? [[name, String(request.headers[name])]] : [])),
      );
      let entry = stored.get(key);
      if (entry && Object.entries(entry.varied).some(([name, value]) => String(request.headers[name] ?? '') !== value)) entry = undefined;
      if (entry && now() - entry.storedAt < entry.maxAgeMs) counts.fromCache += 1;
      else {
        const etag = entry?.headers.get('etag');
        const answer = await fetch(`${origin}${key}`, { headers: { ...forwarded, ...(entry && etag ? { 'if-none-match': etag } : {}) } });
        if (entry && answer.status === 304) {
          counts.revalidated += 1;
          entry.storedAt = now();
        } else {
          counts.fromOrigin += 1;
          const cacheControl = answer.headers.get('cache-control') ?? '';
          const maxAge = /(?:^|,)\s*max-age=(\d+)/.exec(cacheControl)?.[1];
          const fresh = { status: answer.status, headers: answer.headers, body: await answer.text(), storedAt: now(), maxAgeMs: 0 };
          const varyOn = (answer.headers.get('vary') ?? '').split(',').map((name) => name.trim().toLowerCase());
          entry = { ...fresh, maxAgeMs: Number(maxAge) * 1_000, varied: variedBy(varyOn.filter(Boolean), request.headers) };
          if (/\bpublic\b/.test(cacheControl) && !/\b(private|no-store)\b/.test(cacheControl) && maxAge) stored.set(key, entry);
        }
      }
      response.writeHead(entry.status, { 'content-type': entry.headers.get('content-type') ?? 'application/json' }).end(entry.body);
    })().catch((error: unknown) => response.writeHead(502).end(String(error)));
  });
  return { server, counts };
}

const RENAME = graphql(
  `mutation CacheRenameActivity($id: ID!, $input: UpdateActivityInput!) { updateActivity(id: $id, input: $input) { name } }`,
);

describe('a public read behind a caching proxy', () => {
  let gateway: ListeningGateway;
  let proxy: { server: Server; counts: { fromCache: number; revalidated: number; fromOrigin: number } };
  let proxyUrl: string;
  let clock = 0;
  beforeAll(async () => {
    gateway = await startListeningGateway();
    await gateway.reset();
    proxy = cachingProxy(gateway.wsUrl.replace('ws://', 'http://').replace(/\/graphql$/, ''), () => clock);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    proxy?.server.close();
    await gateway?.close();
  });

  const read = `/graphql?${new URLSearchParams({ query: 'query Lesson($id: ID!) { activity(id: $id) { uid name } }', variables: JSON.stringify({ id: uids.lesson }) })}`;
  const client = async (headers: Record<string, string> = {}) => {
    const answer = await fetch(`${proxyUrl}${read}`, { headers });
    return { status: answer.status, body: await answer.json() };
  };

  it('serves a second client from the cache, and a third, after an update and max-age, the new data', async () => {
    const first = await client();
    expect(first.body).toEqual({ data: { activity: { uid: uids.lesson, name: 'Parallel Structure' } } });
    expect(proxy.counts).toEqual({ fromCache: 0, revalidated: 0, fromOrigin: 1 });

    const statements = gateway.statements();
    const second = await client();
    expect(second.body).toEqual(first.body);
    expect(proxy.counts).toEqual({ fromCache: 1, revalidated: 0, fromOrigin: 1 });
    expect(gateway.statements()).toBe(statements);

    // max-age passes with nothing changed: the proxy revalidates, the gateway answers 304, the stored answer serves.
    clock += 61_000;
    expect((await client()).body).toEqual(first.body);
    expect(proxy.counts).toEqual({ fromCache: 1, revalidated: 1, fromOrigin: 1 });

    const renamed = await gateway.graphql(RENAME, { id: String(ids.lesson), input: { name: 'Parallel Structure, revised' } }, tokens.staff);
    expect(renamed.errors).toBeUndefined();
    await gateway.heardAllSoFar();
    // Within max-age a shared cache may still serve what it has: max-age bounds how stale it can be.
    expect((await client()).body).toEqual(first.body);

    clock += 61_000;
    const third = await client();
    expect(third.body).toEqual({ data: { activity: { uid: uids.lesson, name: 'Parallel Structure, revised' } } });
    expect(proxy.counts).toEqual({ fromCache: 2, revalidated: 1, fromOrigin: 2 });
  });

  it('a request with a credential is never answered from the cache: a wrong token is refused', async () => {
    await client();
    const before = { ...proxy.counts };
    const wrong = await client({ authorization: 'Bearer not-a-token' });
    expect(wrong.body.errors.map((error: any) => error.extensions.code)).toEqual(['UNAUTHENTICATED']);
    expect(proxy.counts.fromOrigin).toBe(before.fromOrigin + 1);
    expect(proxy.counts.fromCache).toBe(before.fromCache);
  });
});
