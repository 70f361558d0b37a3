import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Client as UrqlClient, fetchExchange, gql } from '@urql/core';
import { auditServer, createClient as createGraphQLHttpClient } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids, tokens } from '../../kit/fixture.ts';
import { readClassroomActivity } from '../../kit/graphql.ts';
import { startListeningGateway, type ListeningGateway } from '../../kit/live.ts';

// GraphQL over HTTP from standard clients (README, Operations; src/graphql/csrf.ts): a query sent by GET
// with no credentials or a Bearer token, and no special header, is answered, as urql sends it by default;
// a GET a browser could send with credentials of its own (HTTP Basic, cookies) still needs a sign that it
// was preflighted, POSTs too as before, and GET never runs a mutation. The clients are the real packages,
// on a gateway listening on a real port.

const basic = (token: string) => `Basic ${Buffer.from(`${token}:`).toString('base64')}`;

type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: any };

/** A request with exactly these headers (node:http adds Host and nothing a browser would). */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: response.statusCode!, headers: response.headers, body: parsed });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('GraphQL GET from standard clients', () => {
  let gateway: ListeningGateway;
  let url: string;
  beforeAll(async () => {
    gateway = await startListeningGateway();
    await gateway.reset();
    url = gateway.wsUrl.replace('ws://', 'http://');
  });
  afterAll(() => gateway?.close());

  const requestLines = () => gateway.logs().filter((line) => line.msg === 'request' && line.route === '/graphql');
  const getQuery = (query: string, variables?: Record<string, unknown>) =>
    `${url}?${new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) }).toString()}`;

  it('urql (its defaults: fetch, GET for queries) is answered, anonymous and with a Bearer token', async () => {
    const anonymous = new UrqlClient({ url, exchanges: [fetchExchange] });
    const sent = requestLines().length;
    const activity = await anonymous
      .query(
        gql`
          query ActivityById($id: ID!) {
            activity(id: $id) {
              uid
              name
            }
          }
        `,
        { id: '10' },
      )
      .toPromise();
    expect(activity.error).toBeUndefined();
    expect(activity.data.activity).toEqual({ uid: expect.any(String), name: 'Parallel Structure' });

    const signedIn = new UrqlClient({
      url,
      exchanges: [fetchExchange],
      fetchOptions: { headers: { authorization: `Bearer ${tokens.owner}` } },
    });
    const viewer = await signedIn
      .query(
        gql`
          query Me {
            viewer {
              id
              name
            }
          }
        `,
        {},
      )
      .toPromise();
    expect(viewer.error).toBeUndefined();
    expect(viewer.data.viewer.id).toBe(String(ids.owner));

    // Both went as GET, which Apollo's own CSRF prevention used to refuse (400).
    const lines = requestLines().slice(sent);
    expect(lines.map((line) => [line.method, line.statusCode])).toEqual([
      ['GET', 200],
      ['GET', 200],
    ]);
  });

  it('urql with a wrong token gets UNAUTHENTICATED, not an anonymous answer', async () => {
    const client = new UrqlClient({ url, exchanges: [fetchExchange], fetchOptions: { headers: { authorization: 'Bearer not-a-token' } } });
    const answer = await client
      .query(
        gql`
          {
            viewer {
              id
            }
          }
        `,
        {},
      )
      .toPromise();
    expect(answer.error?.graphQLErrors.map((error) => error.extensions.code)).toEqual(['UNAUTHENTICATED']);
  });

  it('graphql-http’s client is answered, anonymous and with a Bearer token', async () => {
    const run = (headers: Record<string, string>, query: string) =>
      new Promise<any>((resolve, reject) => {
        let result: unknown;
        createGraphQLHttpClient({ url, headers }).subscribe(
          { query },
          { next: (value) => (result = value), error: reject, complete: () => resolve(result) },
        );
      });
    expect(await run({}, '{ activity(id: "10") { name } }')).toEqual({ data: { activity: { name: 'Parallel Structure' } } });
    expect(await run({ authorization: `Bearer ${tokens.owner}` }, '{ viewer { id } }')).toEqual({
      data: { viewer: { id: String(ids.owner) } },
    });
  });

  it('passes every MUST of graphql-http’s GraphQL-over-HTTP audit', async () => {
    const results = await auditServer({ url });
    const failed = results.filter((result) => result.status === 'error').map((result) => `${result.id} ${result.name}`);
    expect(failed).toEqual([]);
    expect(results.filter((result) => result.status === 'ok').length).toBeGreaterThan(50);
  });

  it('a GET with HTTP Basic or a cookie, as a browser resends them by itself, must show it was preflighted', async () => {
    const query = getQuery('{ viewer { id } }');
    const refused = (answer: RawAnswer) => {
      expect(answer.status).toBe(400);
      expect(answer.body.errors.map((error: any) => error.extensions.code)).toEqual(['BAD_REQUEST']);
      expect(answer.body.errors[0].message).toMatch(/cross-site request forgery/);
    };
    refused(await raw(query, 'GET', { authorization: basic(tokens.owner) }));
    refused(await raw(query, 'GET', { cookie: 'session=abc' }));
    // A Bearer token does not make a cookie safe: the browser added the cookie.
    refused(await raw(query, 'GET', { cookie: 'session=abc', authorization: `Bearer ${tokens.owner}` }));
    refused(await raw(query, 'GET', { authorization: basic(tokens.owner), 'content-type': 'text/plain' }));
    refused(await raw(query, 'GET', { authorization: basic(tokens.owner), 'apollo-require-preflight': '' }));

    // With what a page cannot send cross-origin unless the server's CORS allows it, the same GET is answered.
    const viewer = { data: { viewer: { id: String(ids.owner) } } };
    const preflights: Record<string, string>[] = [
      { 'apollo-require-preflight': 'true' },
      { 'x-apollo-operation-name': 'Me' },
      { 'content-type': 'application/json' },
    ];
    for (const preflight of preflights) {
      const answer = await raw(query, 'GET', { authorization: basic(tokens.owner), ...preflight });
      expect(answer.status, JSON.stringify(preflight)).toBe(200);
      expect(answer.body).toEqual(viewer);
    }
    const withCookie = await raw(query, 'GET', {
      cookie: 'session=abc',
      authorization: `Bearer ${tokens.owner}`,
      'apollo-require-preflight': '1',
    });
    expect(withCookie.body).toEqual(viewer);
    // No credentials, no header: answered.
    expect((await raw(getQuery('{ activity(id: "10") { name } }'), 'GET', {})).body).toEqual({
      data: { activity: { name: 'Parallel Structure' } },
    });
  });

  it('POST stays under CSRF prevention as before: a form-like content type is refused', async () => {
    const body = JSON.stringify({ query: '{ activity(id: "10") { name } }' });
    const plain = await raw(url, 'POST', { 'content-type': 'text/plain' }, body);
    expect(plain.status).toBe(400);
    expect(plain.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect((await raw(url, 'POST', { 'content-type': 'application/json' }, body)).status).toBe(200);
  });

  it('GET never runs a mutation: 405 with Allow: POST, and nothing changes', async () => {
    const mutation = getQuery('mutation Lock($id: ID!) { unpinAndLock(id: $id) { locked } }', { id: String(ids.classroomActivity) });
    const senders: Record<string, string>[] = [
      { authorization: `Bearer ${tokens.owner}` },
      { authorization: basic(tokens.owner), 'apollo-require-preflight': 'true' },
      { authorization: `Bearer ${tokens.owner}`, 'content-type': 'application/json' },
    ];
    for (const headers of senders) {
      const answer = await raw(mutation, 'GET', headers);
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('POST');
      expect(answer.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    }
    expect(await readClassroomActivity(gateway)).toMatchObject({ locked: false });
  });

  it('the playground page is still served to a browser that sends cookies', async () => {
    const page = await raw(url, 'GET', { accept: 'text/html', cookie: 'other-app=1' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });
});
