import { buildSchema, parse, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { subscriptionDocuments } from '../../src/graphql/subscriptions/documents.ts';

// Subscription documents (src/graphql/subscriptions/documents.ts): checked once per text and shared; the
// trusted documents, checked at start, are served as they were checked, never parsed again.

const schema = buildSchema('type Query { a: Int } type Subscription { ticks(every: Int!): Int! }');
const TICKS = 'subscription Ticks { ticks(every: 1) }';
type Checked = { document: DocumentNode };

describe('subscriptionDocuments', () => {
  it('checks a text once, and hands every later subscriber the same document', () => {
    const check = subscriptionDocuments(schema, []);
    const first = check(TICKS) as Checked;
    expect(first.document.kind).toBe('Document');
    expect((check(TICKS) as Checked).document).toBe(first.document);
  });

  it('serves a document checked at start (a trusted one) as it was, without parsing its text again', () => {
    const listed = parse(TICKS);
    const check = subscriptionDocuments(schema, [], new Map([[TICKS, listed]]));
    expect((check(TICKS) as Checked).document).toBe(listed);
  });

  it('refuses a text that does not parse, or does not validate, with its code', () => {
    const check = subscriptionDocuments(schema, []);
    expect(check('subscription {')).toMatchObject({ errors: [{ extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] });
    expect(check('subscription { nope }')).toMatchObject({ errors: [{ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
  });
});
