import { ApolloArmor } from '@escape.tech/graphql-armor';

// The limits every operation meets, over HTTP, WebSocket and from the REST shim alike (SECURITY.md lists
// them): graphql-armor's validation rules and plugins, and graphql-js's own token limit while parsing.

export const graphqlLimits = {
  maxDepth: 10,
  maxAliases: 15,
  maxTokens: 2_000,
  maxDirectives: 20,
  costLimit: 5_000,
};

/** graphql-armor's plugins and validation rules for the gateway's limits (the WebSocket transport uses its rules too). */
export function armorFor() {
  return new ApolloArmor({
    maxDepth: { n: graphqlLimits.maxDepth },
    maxAliases: { n: graphqlLimits.maxAliases },
    // graphql-armor's token limit re-parses the document in a plugin hook, which turns every syntax error
    // into a 500; graphql-js enforces the same limit while parsing (src/graphql/server.ts, `parseOptions`).
    maxTokens: { enabled: false },
    maxDirectives: { n: graphqlLimits.maxDirectives },
    costLimit: { maxCost: graphqlLimits.costLimit },
    // Apollo's `hideSchemaDetailsFromClientErrors` (below) already removes "Did you mean" suggestions;
    // armor's would be a second plugin run on every request for the same effect.
    blockFieldSuggestion: { enabled: false },
  }).protect();
}
