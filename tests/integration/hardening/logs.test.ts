import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids, tokens } from '../../kit/fixture.ts';
import { startGateway, type Gateway } from '../../kit/gateway.ts';

// Exactly one structured line per request: id, user, route or operation, status, duration; never a
// token, a password or a body.

const lines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({ LOG_LEVEL: 'info' }, { logStream });
  await gateway.reset();
});
afterAll(() => gateway?.close());

describe('request logs', () => {
  it('one line per request with its id, user, route or operation, status and duration', async () => {
    lines.length = 0;
    const rest = await gateway.app.inject({
      method: 'GET',
      url: '/api/v1/classroom_activities/100/student_names',
      headers: { authorization: `Bearer ${tokens.owner}`, 'x-request-id': 'req-rest-1' },
    });
    const gql = await gateway.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.owner}`, 'x-request-id': 'req-gql-1' },
      payload: JSON.stringify({ query: 'query WhoAmI { viewer { id } }' }),
    });
    const anonymous = await gateway.app.inject({ method: 'GET', url: '/api/v1/activities/10', headers: { 'x-request-id': 'req-anon-1' } });
    expect([rest.statusCode, gql.statusCode, anonymous.statusCode]).toEqual([200, 200, 200]);

    const requestLines = entries().filter((entry) => entry.msg === 'request');
    expect(requestLines).toHaveLength(3);
    expect(entries()).toHaveLength(3); // and nothing else (no "incoming request" / "request completed" pairs)
    const [r, g, a] = requestLines;
    expect(r).toMatchObject({
      reqId: 'req-rest-1',
      userId: ids.owner,
      method: 'GET',
      route: '/api/v1/classroom_activities/:id/student_names',
      statusCode: 200,
      level: 30,
    });
    expect(g).toMatchObject({
      reqId: 'req-gql-1',
      userId: ids.owner,
      method: 'POST',
      route: '/graphql',
      operation: 'WhoAmI',
      statusCode: 200,
    });
    expect(a).toMatchObject({ reqId: 'req-anon-1', route: '/api/v1/activities/:id', statusCode: 200 });
    expect(a).not.toHaveProperty('userId');
    for (const entry of requestLines) expect(entry.durationMs).toEqual(expect.any(Number));
  });

  it('never logs a token, a password or a body, even when the request fails', async () => {
    lines.length = 0;
    const secret = 'lgw_NotARealTokenButSecret0123456789abcdefXYZ';
    const password = 'hunter2-very-secret-password';
    const basic = Buffer.from(`${tokens.staff}:`).toString('base64');
    await gateway.app.inject({ method: 'GET', url: '/api/v1/activities/10', headers: { authorization: `Bearer ${secret}` } });
    await gateway.app.inject({ method: 'GET', url: '/api/v1/activities/10', headers: { authorization: `Basic ${basic}` } });
    await gateway.app.inject({
      method: 'PUT',
      url: '/api/v1/classroom_activities/100/finish_lesson',
      headers: { authorization: `Bearer ${tokens.owner}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ password, concept_results: [{ activity_session_uid: password }] }),
    });
    await gateway.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      payload: JSON.stringify({ query: `{ activity(id: "${password}") { id } }` }),
    });
    await gateway.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: `{"query": "${password}`,
    });
    const all = lines.join('\n');
    expect(entries().filter((entry) => entry.msg === 'request')).toHaveLength(5);
    for (const needle of [secret, password, tokens.staff, tokens.owner, basic]) expect(all).not.toContain(needle);
  });
});
