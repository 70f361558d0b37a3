import { GraphQLError, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import { LRUCache } from 'lru-cache';
import { graphqlLimits } from '../limits.ts';

// Subscription documents, parsed and validated under the same limits as HTTP's. Every student of a lesson
// sends the same text: checked once, the one document is shared by their subscriptions (docs/performance.md).

export type CheckedDocument = { document: DocumentNode } | { errors: GraphQLError[] };

export function subscriptionDocuments(
  schema: GraphQLSchema,
  validationRules: readonly ValidationRule[],
  /** Documents checked already, by their text, kept for good (the trusted documents, checked at start). */
  checkedAtStart: ReadonlyMap<string, DocumentNode> = new Map(),
): (query: string) => CheckedDocument {
  // Bounded by entries and by the texts' size.
  const valid = new LRUCache<string, DocumentNode>({ max: 1_000, maxSize: 4 * 1024 * 1024, sizeCalculation: (_, query) => query.length });
  return (query) => {
    const cached = checkedAtStart.get(query) ?? valid.get(query);
    if (cached) return { document: cached };
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: graphqlLimits.maxTokens });
    } catch (error) {
      const message = error instanceof GraphQLError ? error.message : 'Syntax error';
      return { errors: [new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })] };
    }
    const errors = validate(schema, document, [...specifiedRules, ...validationRules]);
    if (errors.length > 0)
      return {
        errors: errors.map(
          (error) => new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
        ),
      };
    valid.set(query, document);
    return { document };
  };
}
