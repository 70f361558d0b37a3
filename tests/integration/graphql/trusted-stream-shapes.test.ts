import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids, tokens } from '../../kit/fixture.ts';
import { LESSON_EVENTS, startListeningGateway, waitFor, type ListeningGateway } from '../../kit/live.ts';

// Trusted documents hold on /graphql/stream whatever the request's shape (docs/trusted-documents.md): the
// document checked is the one that runs, so a repeated parameter, a `#` in the target or a content type that
// merely contains application/json cannot run an unlisted one. In log mode, what runs outside the list is counted.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const UNLISTED = 'subscription Events($id: ID!) { lessonEvents(classroomActivityId: $id) { kind classroomActivityId } }';
const variables = JSON.stringify({ id: String(ids.classroomActivity) });

const dir = mkdtempSync(join(tmpdir(), 'lgw-trusted-stream-'));
const manifestFile = join(dir, 'persisted-documents.json');
writeFileSync(manifestFile, JSON.stringify({ [sha256(LESSON_EVENTS)]: LESSON_EVENTS }));

/** Sends a request with this exact target, headers and body; resolves with its status once the head arrives, then goes away. */
function send(gateway: ListeningGateway, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string) {
  const { port } = new URL(gateway.streamUrl);
  return new Promise<number>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method, path, headers: { accept: 'text/event-stream', ...headers } });
    request.on('error', reject);
    request.once('response', (response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      setTimeout(() => request.destroy(), 200);
    });
    request.end(body);
  });
}

const owner = { authorization: `Bearer ${tokens.owner}` };
const shapes = (query: string) => {
  const q = encodeURIComponent(query);
  const v = encodeURIComponent(variables);
  return [
    ['GET, `query` twice', 'GET', `/graphql/stream?query=${q}&variables=${v}&query=x`, owner, undefined],
    ['GET, `#` before `?query=`', 'GET', `/graphql/stream#?query=${q}&variables=${v}`, owner, undefined],
    [
      'POST, text/plain that mentions application/json',
      'POST',
      '/graphql/stream',
      { ...owner, 'content-type': 'text/plain; x=application/json' },
      JSON.stringify({ query, variables: JSON.parse(variables) }),
    ],
  ] as const;
};

describe('enforce mode', () => {
  let gateway: ListeningGateway;
  beforeAll(async () => {
    gateway = await startListeningGateway({ TRUSTED_DOCUMENTS: manifestFile });
  });
  afterAll(() => gateway?.close());

  it('no shape of request opens a stream for an unlisted subscription', async () => {
    for (const [name, method, path, headers, body] of shapes(UNLISTED)) {
      const status = await send(gateway, method, path, headers, body);
      expect(status, name).not.toBe(200);
      expect(status, name).toBeGreaterThanOrEqual(400);
    }
    expect(gateway.logs().filter((line) => line.msg === 'subscription started')).toHaveLength(0);
  });

  it('a listed subscription sent plainly still opens its stream', async () => {
    const q = encodeURIComponent(LESSON_EVENTS);
    expect(await send(gateway, 'GET', `/graphql/stream?query=${q}&variables=${encodeURIComponent(variables)}`, owner)).toBe(200);
    await gateway.waitForLog('subscription started');
  });
});

describe('log mode', () => {
  let gateway: ListeningGateway;
  beforeAll(async () => {
    gateway = await startListeningGateway({ TRUSTED_DOCUMENTS: manifestFile, TRUSTED_DOCUMENTS_MODE: 'log' });
  });
  afterAll(() => gateway?.close());

  it('every unlisted subscription that runs is logged as run outside the list', async () => {
    const outside = () => gateway.logs().filter((line) => line.msg === 'an operation outside the trusted documents ran').length;
    for (const [name, method, path, headers, body] of shapes(UNLISTED)) {
      const before = gateway.logs().filter((line) => line.msg === 'subscription started').length;
      const counted = outside();
      const status = await send(gateway, method, path, headers, body);
      if (status === 200) {
        await gateway.waitForLog('subscription started', before + 1);
        await waitFor(() => outside() > counted, `${name}: logged as outside the list`);
      } else expect(outside(), name).toBe(counted);
    }
  });
});
