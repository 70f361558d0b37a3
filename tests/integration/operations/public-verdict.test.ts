import { describe, expect, it } from 'vitest';
import { gatewayForTests } from '../../kit/gateway.ts';

// Whether a GraphQL read is public (docs/operations.md, HTTP caching) is decided by its document and its
// operation, never by an earlier request's error: an empty `operationName` is not an absent one.

const gateway = gatewayForTests({}, { reset: false });

const QUERY = 'query A { activities(first: 1) { totalCount } }';
const get = (params: Record<string, string>) => gateway.rest('GET', `/graphql?${new URLSearchParams(params)}`);

describe('an empty operationName', () => {
  it('is refused, and leaves the same document public without it', async () => {
    const empty = await get({ query: QUERY, operationName: '' });
    expect(empty.status).toBe(400);
    expect(empty.headers['cache-control']).toBe('private, no-store');
    const absent = await get({ query: QUERY });
    expect(absent.status, absent.text).toBe(200);
    expect(absent.headers['cache-control']).toBe('public, max-age=60');
    expect(absent.headers.etag).toBeDefined();
  });

  it('an unknown name first does not make the document private either', async () => {
    const other = 'query B { activities(first: 2) { totalCount } }';
    expect((await get({ query: other, operationName: 'Nope' })).status).toBe(400);
    const named = await get({ query: other, operationName: 'B' });
    expect(named.headers['cache-control'], named.text).toBe('public, max-age=60');
    const absent = await get({ query: other });
    expect(absent.headers['cache-control'], absent.text).toBe('public, max-age=60');
  });
});
