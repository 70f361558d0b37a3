import { afterAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../kit/gateway.ts';
import { graphql } from '../../kit/gql/index.ts';

// In production the playground is off (docs/contract.md, Running it), unless PLAYGROUND=1 turns it on.

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const gateways: Gateway[] = [];
afterAll(() => Promise.all(gateways.map((gateway) => gateway.close())));

async function start(env: Record<string, string>) {
  const gateway = await startGateway(env);
  gateways.push(gateway);
  return gateway;
}

describe('the playground in production', () => {
  it('is not served: no page at GET /graphql, no assets', async () => {
    const gateway = await start({ NODE_ENV: 'production' });

    const page = await gateway.app.inject({ method: 'GET', url: '/graphql', headers: { accept: BROWSER_ACCEPT } });
    expect(page.headers['content-type'] ?? '').not.toMatch(/text\/html/);
    expect(page.body).not.toContain('graphiql');
    expect((await gateway.app.inject({ method: 'GET', url: '/playground/graphiql.js' })).statusCode).toBe(404);
    expect((await gateway.app.inject({ method: 'GET', url: '/playground/graphiql.css' })).statusCode).toBe(404);
    // GraphQL itself still answers.
    expect(await gateway.graphql(graphql(`query Typename { __typename }`))).toMatchObject({ status: 200, data: { __typename: 'Query' } });
  });

  it('is served with PLAYGROUND=1', async () => {
    const gateway = await start({ NODE_ENV: 'production', PLAYGROUND: '1' });

    const page = await gateway.app.inject({ method: 'GET', url: '/graphql', headers: { accept: BROWSER_ACCEPT } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('playground/graphiql.js');
    const css = await gateway.app.inject({ method: 'GET', url: '/playground/graphiql.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });
});
