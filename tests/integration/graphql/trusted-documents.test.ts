import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApolloServerPlugin } from '@apollo/server';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { armorFor } from '../../../src/graphql/limits.ts';
import { buildSchema } from '../../../src/graphql/schema.ts';
import { createApollo } from '../../../src/graphql/server.ts';
import { loadTrustedDocuments } from '../../../src/graphql/trusted-documents.ts';
import { ids, tokens, uids } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { errorCodes } from '../../kit/graphql.ts';
import { follow, followStream, LESSON_EVENTS, rawStream, startListeningGateway, type ListeningGateway } from '../../kit/live.ts';
import { scrape, total } from '../../kit/metrics.ts';
import { freePort } from '../../kit/ports.ts';

// Trusted documents (docs/trusted-documents.md): only the operations the first-party clients ship run, by
// id or by their text, over GET, POST, WebSocket and event streams; the REST shim's own operations always run.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const ACTIVITY = 'query Activity($id: ID!) { activity(id: $id) { uid name } }';
const VIEWER = 'query Viewer { viewer { id } }';
const FOLLOW = `subscription Follow($id: ID!) { lessonEvents(classroomActivityId: $id) { kind } }`;
const UNLISTED = '{ activities(first: 1) { totalCount } }';

const dir = mkdtempSync(join(tmpdir(), 'lgw-trusted-'));
function manifest(name: string, content: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}
/** graphql-codegen's client preset: id → text, with and without the `sha256:` prefix. */
const codegenManifest = () =>
  manifest('persisted-documents.json', {
    [`sha256:${sha256(ACTIVITY)}`]: ACTIVITY,
    [sha256(VIEWER)]: VIEWER,
    [sha256(LESSON_EVENTS)]: LESSON_EVENTS,
  });
/** Apollo's persisted query manifest. */
const apolloManifest = () =>
  manifest('persisted-query-manifest.json', {
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: [
      { id: sha256(ACTIVITY), name: 'Activity', type: 'query', body: ACTIVITY },
      { id: sha256(VIEWER), name: 'Viewer', type: 'query', body: VIEWER },
    ],
  });

type Answer = { status: number; body: any };
const post = async (gateway: Gateway, body: unknown): Promise<Answer> => {
  const response = await gateway.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.owner}` },
    payload: JSON.stringify(body),
  });
  return { status: response.statusCode, body: JSON.parse(response.body) };
};
const get = async (gateway: Gateway, params: Record<string, string>): Promise<Answer> => {
  const response = await gateway.app.inject({
    method: 'GET',
    url: `/graphql?${new URLSearchParams(params).toString()}`,
    headers: { authorization: `Bearer ${tokens.owner}` },
  });
  return { status: response.statusCode, body: JSON.parse(response.body) };
};
const variables = { id: uids.lesson };
const ran = (answer: Answer) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.errors).toBeUndefined();
};
const refused = (answer: Answer, code: string) => {
  expect(answer.status).toBe(400);
  expect(errorCodes(answer.body)).toEqual([code]);
};

describe('TRUSTED_DOCUMENTS with graphql-codegen’s manifest, enforced', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({ TRUSTED_DOCUMENTS: codegenManifest() });
  });
  afterAll(() => gateway?.close());

  it('runs a listed document by its documentId, with or without the sha256: prefix, by POST and by GET', async () => {
    for (const documentId of [`sha256:${sha256(ACTIVITY)}`, sha256(ACTIVITY)]) {
      const byPost = await post(gateway, { documentId, variables });
      ran(byPost);
      expect(byPost.body.data.activity.uid).toBe(uids.lesson);
      ran(await get(gateway, { documentId, variables: JSON.stringify(variables) }));
    }
    const viewer = await post(gateway, { documentId: `sha256:${sha256(VIEWER)}` });
    expect(viewer.body.data.viewer).toEqual({ id: String(ids.owner) });
  });

  it('runs a listed document sent as its text, by POST and by GET, and by Apollo’s persisted-query hash', async () => {
    ran(await post(gateway, { query: ACTIVITY, variables }));
    ran(await get(gateway, { query: ACTIVITY, variables: JSON.stringify(variables) }));
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(ACTIVITY) } };
    ran(await post(gateway, { extensions, variables }));
    ran(await get(gateway, { extensions: JSON.stringify(extensions), variables: JSON.stringify(variables) }));
  });

  it('refuses an unknown id (PERSISTED_QUERY_NOT_FOUND) and a text not in the list (PERSISTED_QUERY_NOT_IN_LIST), with 400', async () => {
    refused(await post(gateway, { documentId: `sha256:${sha256(UNLISTED)}` }), 'PERSISTED_QUERY_NOT_FOUND');
    refused(await get(gateway, { documentId: 'nope' }), 'PERSISTED_QUERY_NOT_FOUND');
    refused(
      await post(gateway, { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(UNLISTED) } } }),
      'PERSISTED_QUERY_NOT_FOUND',
    );
    refused(await post(gateway, { query: UNLISTED }), 'PERSISTED_QUERY_NOT_IN_LIST');
    refused(await get(gateway, { query: UNLISTED }), 'PERSISTED_QUERY_NOT_IN_LIST');
    // A listed text changed by one character is another text.
    refused(await post(gateway, { query: `${ACTIVITY} `, variables }), 'PERSISTED_QUERY_NOT_IN_LIST');
  });

  it('refuses an APQ registration of a text not in the list, which then stays unknown', async () => {
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(UNLISTED) } };
    refused(await post(gateway, { query: UNLISTED, extensions }), 'PERSISTED_QUERY_NOT_IN_LIST');
    refused(await post(gateway, { extensions }), 'PERSISTED_QUERY_NOT_FOUND');
  });

  it('always runs the REST shim’s own operations', async () => {
    expect((await gateway.rest('GET', `/api/v1/activities/${uids.lesson}`)).status).toBe(200);
    expect(
      (await gateway.rest('GET', `/api/v1/classroom_activities/${ids.classroomActivity}/student_names`, { token: tokens.owner })).status,
    ).toBe(200);
  });
});

describe('TRUSTED_DOCUMENTS with Apollo’s manifest', () => {
  it('runs its operations by Apollo’s hash and by text, and refuses the rest', async () => {
    const gateway = await startGateway({ TRUSTED_DOCUMENTS: apolloManifest(), TRUSTED_DOCUMENTS_MODE: 'enforce' });
    try {
      const answer = await post(gateway, { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(VIEWER) } } });
      expect(answer.body.data.viewer).toEqual({ id: String(ids.owner) });
      ran(await post(gateway, { query: ACTIVITY, variables, operationName: 'Activity' }));
      ran(await post(gateway, { documentId: sha256(ACTIVITY), variables }));
      refused(await post(gateway, { query: FOLLOW }), 'PERSISTED_QUERY_NOT_IN_LIST');
    } finally {
      await gateway.close();
    }
  });
});

describe('TRUSTED_DOCUMENTS whose ids are not the documents’ SHA-256 (a manifest made with another hash, or named ids)', () => {
  it('runs a document by its id, and by Apollo’s persisted-query hash, which is always its text’s SHA-256', async () => {
    const gateway = await startGateway({
      TRUSTED_DOCUMENTS: manifest('named-ids.json', { 'activity-v1': ACTIVITY, [createHash('sha1').update(VIEWER).digest('hex')]: VIEWER }),
    });
    try {
      ran(await post(gateway, { documentId: 'activity-v1', variables }));
      const byHash = await post(gateway, { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(ACTIVITY) } }, variables });
      ran(byHash);
      expect(byHash.body.data.activity.uid).toBe(uids.lesson);
      ran(await get(gateway, { extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(VIEWER) } }) }));
      refused(
        await post(gateway, { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(UNLISTED) } } }),
        'PERSISTED_QUERY_NOT_FOUND',
      );
    } finally {
      await gateway.close();
    }
  });
});

describe('TRUSTED_DOCUMENTS_MODE=log', () => {
  it('runs every document, logs and counts those outside the list by reason; an unknown id still has no text to run', async () => {
    const port = await freePort();
    const gateway = await startGateway({ TRUSTED_DOCUMENTS: codegenManifest(), TRUSTED_DOCUMENTS_MODE: 'log', METRICS_PORT: String(port) });
    try {
      ran(await post(gateway, { query: UNLISTED }));
      ran(await post(gateway, { query: UNLISTED, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(UNLISTED) } } }));
      ran(await post(gateway, { documentId: sha256(ACTIVITY), variables }));
      refused(await post(gateway, { documentId: 'unknown' }), 'PERSISTED_QUERY_NOT_FOUND');
      const samples = await scrape(`http://127.0.0.1:${port}/metrics`);
      expect(total(samples, 'graphql_untrusted_operations_total', { outcome: 'ran', reason: 'not_in_list' })).toBe(1);
      expect(total(samples, 'graphql_untrusted_operations_total', { outcome: 'ran', reason: 'apq_registration' })).toBe(1);
      expect(total(samples, 'graphql_untrusted_operations_total', { outcome: 'refused', reason: 'unknown_id' })).toBe(1);
    } finally {
      await gateway.close();
    }
  });
});

describe('subscriptions over WebSocket', () => {
  let gateway: ListeningGateway;
  beforeAll(async () => {
    gateway = await startListeningGateway({ TRUSTED_DOCUMENTS: codegenManifest() });
  });
  afterAll(() => gateway?.close());

  /** The first answer to a subscription sent with `payload`, then the socket closed. */
  async function firstAnswer(payload: Record<string, unknown>): Promise<any> {
    const client = createClient({
      url: gateway.wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${tokens.owner}` },
    });
    try {
      return await new Promise((resolve) =>
        client.subscribe(payload as never, { next: resolve, error: resolve, complete: () => resolve('complete') }),
      );
    } finally {
      await client.dispose();
    }
  }

  it('run a listed subscription by its text or its documentId, and hear its events', async () => {
    const byText = follow(gateway.wsUrl, ids.classroomActivity, tokens.owner);
    await gateway.waitForLog('subscription started');
    const byId = createClient({
      url: gateway.wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${tokens.owner}` },
    });
    const heard = new Promise((resolve) =>
      byId.subscribe(
        { query: '', documentId: `sha256:${sha256(LESSON_EVENTS)}`, variables: { id: String(ids.classroomActivity) } } as never,
        {
          next: resolve,
          error: resolve,
          complete: () => {},
        },
      ),
    );
    await gateway.waitForLog('subscription started', 2);
    expect(
      (await gateway.rest('PUT', `/api/v1/classroom_activities/${ids.classroomActivity}/unpin_and_lock_activity`, { token: tokens.owner }))
        .status,
    ).toBe(200);
    expect(await heard).toMatchObject({ data: { lessonEvents: { kind: 'LOCKED' } } });
    expect((await byText.waitForEvents(1))[0]).toMatchObject({ kind: 'LOCKED' });
    await byId.dispose();
    await byText.client.dispose();
  });

  it('take a documentId beside an empty query; one without `query` breaks graphql-transport-ws (4400), as documented', async () => {
    const documentId = `sha256:${sha256(LESSON_EVENTS)}`;
    // Sent by hand: graphql-ws's client itself refuses to send a subscribe message without `query`.
    const socket = new WebSocket(gateway.wsUrl, 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.once('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${tokens.owner}` } })),
    );
    socket.once('message', () =>
      socket.send(
        JSON.stringify({ id: '1', type: 'subscribe', payload: { documentId, variables: { id: String(ids.classroomActivity) } } }),
      ),
    );
    expect(await closed).toBe(4400);
    const docs = readFileSync(join(import.meta.dirname, '../../../docs/trusted-documents.md'), 'utf8');
    expect(docs).toContain('`documentId` beside an empty `query`');
  });

  it('refuse a subscription not in the list, and an unknown id, before it runs', async () => {
    const other = await firstAnswer({ query: FOLLOW, variables: { id: String(ids.classroomActivity) } });
    expect(other).toEqual([expect.objectContaining({ extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } })]);
    const unknown = await firstAnswer({ query: '', documentId: 'sha256:00', variables: {} });
    expect(unknown).toEqual([expect.objectContaining({ extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } })]);
    expect(gateway.logs().filter((line) => line.msg === 'subscription started')).toHaveLength(2);
  });
});

describe('subscriptions over Server-Sent Events', () => {
  let gateway: ListeningGateway;
  beforeAll(async () => {
    gateway = await startListeningGateway({ TRUSTED_DOCUMENTS: codegenManifest() });
    await gateway.reset();
  });
  afterAll(() => gateway?.close());
  const owner = { authorization: `Bearer ${tokens.owner}` };
  const variables = { id: String(ids.classroomActivity) };

  it('run a listed subscription by its text, or by its documentId in a POST body or a GET query string, and hear its events', async () => {
    const byText = followStream(gateway.streamUrl, ids.classroomActivity, tokens.owner);
    const documentId = `sha256:${sha256(LESSON_EVENTS)}`;
    const [byPostedId, byGetId] = await Promise.all([
      rawStream(gateway.streamUrl, { headers: owner, variables, documentId }),
      rawStream(gateway.streamUrl, { method: 'GET', headers: owner, variables, documentId }),
    ]);
    expect([byPostedId.status, byGetId.status]).toEqual([200, 200]);
    await gateway.waitForLog('subscription started', 3);
    const lock = await gateway.rest('PUT', `/api/v1/classroom_activities/${ids.classroomActivity}/unpin_and_lock_activity`, {
      token: tokens.owner,
    });
    expect(lock.status).toBe(200);
    expect((await byText.waitForEvents(1))[0]).toMatchObject({ kind: 'LOCKED' });
    for (const stream of [byPostedId, byGetId])
      await expect.poll(() => stream.events().map((message) => message.data?.data?.lessonEvents?.kind)).toEqual(['LOCKED']);
    byText.client.dispose();
    byPostedId.close();
    byGetId.close();
  });

  it('refuse a subscription not in the list, and an unknown id, with HTTP 400 before it runs', async () => {
    const started = gateway.logs().filter((line) => line.msg === 'subscription started').length;
    const other = await rawStream(gateway.streamUrl, { headers: owner, variables, query: FOLLOW });
    await other.ended;
    expect(other.status).toBe(400);
    expect(JSON.parse(other.text())).toEqual({
      errors: [expect.objectContaining({ extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } })],
    });
    const unknown = await rawStream(gateway.streamUrl, { method: 'GET', headers: owner, variables, documentId: 'sha256:00' });
    await unknown.ended;
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text())).toEqual({
      errors: [expect.objectContaining({ extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } })],
    });
    expect(gateway.logs().filter((line) => line.msg === 'subscription started')).toHaveLength(started);
  });
});

describe('a bad manifest stops the start, naming the file and the entry', () => {
  const schema = buildSchema();
  const rules = armorFor().validationRules;
  const failure = (content: unknown) => {
    const file = manifest(`bad-${Math.random().toString(36).slice(2)}.json`, content);
    try {
      loadTrustedDocuments(file, 'enforce', schema, rules);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(file);
      return (error as Error).message;
    }
    throw new Error('the manifest was accepted');
  };

  it('refuses what is not JSON, an empty list, a syntax error, an invalid operation and an id that is not its document’s hash', () => {
    expect(failure('{not json')).toMatch(/cannot be read as JSON/);
    expect(failure({})).toMatch(/lists no document/);
    expect(failure({ a: 'query {' })).toMatch(/"a": Syntax Error/);
    expect(failure({ [sha256('{ nope }')]: '{ nope }' })).toMatch(/Cannot query field "nope"/);
    expect(failure({ [`sha256:${sha256('{ viewer { id } }')}`]: '{ viewer { name } }' })).toMatch(
      /the id is not the SHA-256 of its document/,
    );
    expect(
      failure({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: 'x', name: 'Broken', body: 'query Broken {' }] }),
    ).toMatch(/operations\[0\] \(Broken\): Syntax Error/);
    expect(failure({ format: 'apollo-persisted-query-manifest', version: 2, operations: [] })).toMatch(/version 2/);
  });

  it('the settings: a mode other than enforce or log is refused', () => {
    expect(() => loadConfig({ TRUSTED_DOCUMENTS: 'x.json', TRUSTED_DOCUMENTS_MODE: 'warn' })).toThrow(/TRUSTED_DOCUMENTS_MODE="warn"/);
    expect(loadConfig({ TRUSTED_DOCUMENTS: 'x.json' }).trustedDocumentsMode).toBe('enforce');
  });
});

describe('listed documents are parsed and validated at start', () => {
  it('Apollo does not parse a listed document again at its first request; an unlisted one it parses', async () => {
    const parsed: string[] = [];
    const counting: ApolloServerPlugin = {
      requestDidStart: async () => ({ parsingDidStart: async ({ source }) => void parsed.push(source) }),
    };
    const schema = buildSchema();
    const listed = 'query Typename { __typename }';
    const trusted = loadTrustedDocuments(
      manifest('typename.json', { [sha256(listed)]: listed }),
      'log',
      schema,
      armorFor().validationRules,
    );
    const apollo = createApollo({ schema, playground: false, logger: console as never, plugins: [counting], trusted });
    await apollo.start();
    try {
      expect((await apollo.executeOperation({ query: listed }, { contextValue: {} as never })).body).toMatchObject({
        singleResult: { data: { __typename: 'Query' } },
      });
      await apollo.executeOperation({ query: '{ __typename }' }, { contextValue: {} as never });
      expect(parsed).toEqual(['{ __typename }']);
    } finally {
      await apollo.stop();
    }
  });
});
