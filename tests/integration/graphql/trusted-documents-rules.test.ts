import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { armorFor } from '../../../src/graphql/limits.ts';
import { buildSchema } from '../../../src/graphql/schema.ts';
import { trustedDocumentsFor } from '../../../src/graphql/trusted-documents.ts';
import { tokens } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { scrape, total } from '../../kit/metrics.ts';
import { freePort } from '../../kit/ports.ts';

// What a manifest may not do (docs/trusted-documents.md): reopen introspection where production closes it,
// or list two documents under one id; and what log mode counts as run: only what ran.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const INTROSPECTION = 'query Intro { __schema { queryType { name } } }';
const TYPE = 'query Type { __type(name: "Activity") { name } }';
const VIEWER = 'query Viewer { viewer { id } }';

const dir = mkdtempSync(join(tmpdir(), 'lgw-trusted-rules-'));
function manifest(content: unknown): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const schema = buildSchema();
const rules = armorFor().validationRules;
const load = (env: Record<string, string>) => trustedDocumentsFor(loadConfig(env), schema, rules);
function failure(env: Record<string, string>): string {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the manifest was accepted');
}

describe('a manifest cannot reopen introspection in production', () => {
  it('one listing __schema or __type stops the start under NODE_ENV=production', () => {
    for (const document of [INTROSPECTION, TYPE]) {
      const file = manifest({ [sha256(document)]: document, [sha256(VIEWER)]: VIEWER });
      expect(failure({ NODE_ENV: 'production', TRUSTED_DOCUMENTS: file })).toMatch(/introspection/i);
    }
  });

  it('with PLAYGROUND=1, or out of production, it is accepted', () => {
    const file = manifest({ [sha256(INTROSPECTION)]: INTROSPECTION });
    expect(load({ NODE_ENV: 'production', PLAYGROUND: '1', TRUSTED_DOCUMENTS: file })?.documents).toHaveLength(1);
    expect(load({ TRUSTED_DOCUMENTS: file })?.documents).toHaveLength(1);
  });
});

describe('a manifest with two entries under one id stops the start', () => {
  it('in Apollo’s format, and with and without the sha256: prefix', () => {
    const apollo = manifest({
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [
        { id: 'viewer', name: 'Viewer', type: 'query', body: VIEWER },
        { id: 'viewer', name: 'Other', type: 'query', body: 'query Other { activities(first: 1) { totalCount } }' },
      ],
    });
    expect(failure({ TRUSTED_DOCUMENTS: apollo })).toMatch(/operations\[1\] \(Other\): .*"viewer".*operations\[0\]/);
    const prefixed = manifest({ viewer: VIEWER, 'sha256:viewer': 'query Other { activities(first: 1) { totalCount } }' });
    expect(failure({ TRUSTED_DOCUMENTS: prefixed })).toMatch(/"sha256:viewer": .*"viewer"/);
  });

  it('in graphql-codegen’s object, a key written twice (which JSON.parse reads as its last value)', () => {
    const file = join(dir, 'twice.json');
    writeFileSync(
      file,
      `{ "viewer": ${JSON.stringify(VIEWER)},\n  "a\\"b": "query { __typename }", "viewer" : "query Other { activities(first: 1) { totalCount } }" }`,
    );
    expect(failure({ TRUSTED_DOCUMENTS: file })).toMatch(/"viewer": the id is listed twice/);
    const nested = join(dir, 'nested.json');
    writeFileSync(
      nested,
      JSON.stringify({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [
          { id: 'a', name: 'A', type: 'query', body: VIEWER },
          { id: 'b', name: 'B', type: 'query', body: 'query B { viewer { id } }' },
        ],
      }),
    );
    expect(load({ TRUSTED_DOCUMENTS: nested })?.documents).toHaveLength(2);
  });
});

describe('log mode counts as run only what ran', () => {
  let gateway: Gateway;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    gateway = await startGateway({
      TRUSTED_DOCUMENTS: manifest({ [sha256(VIEWER)]: VIEWER }),
      TRUSTED_DOCUMENTS_MODE: 'log',
      METRICS_PORT: String(port),
    });
  });
  afterAll(() => gateway?.close());

  const post = (body: unknown) =>
    gateway.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.owner}` },
      payload: JSON.stringify(body),
    });

  it('an APQ hash it does not know, and an invalid document, are not counted; a valid unlisted one is', async () => {
    const unknownHash = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ nothing }') } } });
    expect(unknownHash.json().errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const invalid = await post({ query: '{ noSuchField }' });
    expect(invalid.statusCode).toBe(400);
    const syntax = await post({ query: '{ viewer {' });
    expect(syntax.statusCode).toBe(400);
    const unlisted = await post({ query: '{ activities(first: 1) { totalCount } }' });
    expect(unlisted.statusCode).toBe(200);
    const samples = await scrape(`http://127.0.0.1:${port}/metrics`);
    expect(total(samples, 'graphql_untrusted_operations_total', { outcome: 'ran' })).toBe(1);
    expect(total(samples, 'graphql_untrusted_operations_total', { outcome: 'ran', reason: 'not_in_list' })).toBe(1);
  });
});
