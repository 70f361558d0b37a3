import { ApolloServer } from '@apollo/server';
import type { GatewayInterface } from '@apollo/server-gateway-interface';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';

// patches/@apollo+server+5.5.1.patch: the request context Apollo hands a gateway executor (ours runs
// graphql-jit, src/graphql/executor.ts) keeps its HTTP status accessors on a shared class, not as closures
// made per request, which held each request's objects until a full collection. Fails if an upgrade drops it.

describe('the request context Apollo gives a gateway executor', () => {
  it('reads and writes the HTTP status through accessors on a shared prototype, not per-request closures', async () => {
    const sdl = 'type Query { answer: Int }';
    const schema = buildSchema(sdl);
    const seen: object[] = [];
    const gateway: GatewayInterface = {
      onSchemaLoadOrUpdate(callback) {
        callback({ apiSchema: schema, coreSupergraphSdl: sdl });
        return () => {};
      },
      load: async () => ({
        executor: async ({ response }) => {
          seen.push(response!.http!);
          response!.http!.status = 299;
          return { data: { answer: 42 } };
        },
      }),
      stop: async () => {},
    };
    const server = new ApolloServer({ gateway });
    await server.start();
    try {
      const first = await server.executeOperation({ query: '{ answer }' });
      await server.executeOperation({ query: '{ answer }' });
      expect(first.body).toEqual({ kind: 'single', singleResult: { data: { answer: 42 } } });
      expect(first.http.status).toBe(299);
      const [one, two] = seen as [object, object];
      expect(Object.getOwnPropertyDescriptor(one, 'status')).toBeUndefined();
      const accessor = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(one), 'status');
      expect(typeof accessor?.get).toBe('function');
      expect(typeof accessor?.set).toBe('function');
      expect(Object.getPrototypeOf(two)).toBe(Object.getPrototypeOf(one));
    } finally {
      await server.stop();
    }
  });
});
