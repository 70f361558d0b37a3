import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { ConfigError, type Config } from '../config.ts';
import { graphqlLimits } from './limits.ts';
import { persistedQueryHash } from './persisted-query.ts';

// The operations the first-party clients ship (docs/trusted-documents.md): a manifest read, parsed and
// validated at start; each request by id or by text is run as the listed document, or refused (`enforce`),
// or run and counted (`log`).

export type TrustedDocumentsMode = 'enforce' | 'log';

/** A listed document: its text, its SHA-256 (hex), its parsed and validated form, and where it stood in the manifest. */
export type ListedDocument = { text: string; hash: string; document: DocumentNode; entry: string };

/** Why a request is outside the list: an id the list does not hold, a text it does not hold, an APQ registration of such a text. */
export type OutsideReason = 'unknown_id' | 'not_in_list' | 'apq_registration';

/** What to do with a request: run this text, refuse it (HTTP 400), or (log mode) run it as sent and count it. */
export type Resolution =
  | { kind: 'listed'; text: string }
  | { kind: 'refused'; reason: OutsideReason; error: GraphQLError }
  | { kind: 'outside'; reason: OutsideReason }
  | { kind: 'none' };

/** What a request names: a text, a `documentId`, an Apollo persisted-query hash. */
export type DocumentReference = { query?: unknown; documentId?: unknown; sha256Hash?: unknown };

/** Told of each operation outside the list: refused, or run (`log` mode). */
export type OnOutside = (outcome: 'refused' | 'ran', reason: OutsideReason) => void;

/**
 * What a request names, from its fields: a POST's body, a GET's query string (where `extensions` is JSON
 * text), a subscribe message. An empty `query` names nothing (a client sending only an id).
 */
export function referenceIn(fields: Record<string, unknown> | null | undefined): DocumentReference {
  if (!fields || typeof fields !== 'object') return {};
  return {
    query: fields.query === '' ? undefined : fields.query,
    documentId: fields.documentId,
    sha256Hash: persistedQueryHash(fields.extensions),
  };
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const withoutPrefix = (id: string) => (id.startsWith('sha256:') ? id.slice('sha256:'.length) : id);

export class TrustedDocuments {
  private readonly byId = new Map<string, ListedDocument>();
  private readonly byHash = new Map<string, ListedDocument>();

  constructor(
    readonly mode: TrustedDocumentsMode,
    documents: { id: string; listed: ListedDocument }[],
  ) {
    for (const { id, listed } of documents) {
      this.byId.set(withoutPrefix(id), listed);
      this.byHash.set(listed.hash, listed);
    }
  }

  /** Every listed document, once each. */
  get documents(): ListedDocument[] {
    return [...this.byHash.values()];
  }

  resolve({ query, documentId, sha256Hash }: DocumentReference): Resolution {
    if (typeof documentId === 'string') {
      const listed = this.byId.get(withoutPrefix(documentId));
      return listed ? { kind: 'listed', text: listed.text } : this.refuse('unknown_id', true);
    }
    if (typeof sha256Hash === 'string') {
      if (typeof query === 'string') {
        // An APQ registration: a text the list holds may be registered, no other.
        return this.byHash.has(sha256(query)) ? { kind: 'listed', text: query } : this.refuse('apq_registration', false);
      }
      // Apollo's hash is the text's SHA-256, whatever ids the manifest gave its documents.
      const listed = this.byHash.get(sha256Hash.toLowerCase()) ?? this.byId.get(withoutPrefix(sha256Hash));
      return listed ? { kind: 'listed', text: listed.text } : this.refuse('unknown_id', this.mode === 'enforce');
    }
    if (typeof query === 'string')
      return this.byHash.has(sha256(query)) ? { kind: 'listed', text: query } : this.refuse('not_in_list', false);
    return { kind: 'none' };
  }

  /**
   * `resolve`, with `onOutside` told of a refusal: the error to answer, or the listed text to run in place of
   * what was sent (undefined: run it as sent) and, in `log` mode, why it is outside the list. Whoever runs it
   * tells `onOutside` it ran once it does (an APQ miss or an invalid document never runs, and is not counted).
   */
  admit(
    reference: DocumentReference,
    onOutside: OnOutside,
  ): { refused: GraphQLError } | { text: string | undefined; outside: OutsideReason | undefined } {
    const resolution = this.resolve(reference);
    if (resolution.kind === 'refused') {
      onOutside('refused', resolution.reason);
      return { refused: resolution.error };
    }
    return {
      text: resolution.kind === 'listed' ? resolution.text : undefined,
      outside: resolution.kind === 'outside' ? resolution.reason : undefined,
    };
  }

  /** Refused in `enforce` mode (and an unknown id always, having no text to run); in `log` mode, run and counted. */
  private refuse(reason: OutsideReason, always: boolean): Resolution {
    if (this.mode === 'log' && !always) return { kind: 'outside', reason };
    const [code, message] =
      reason === 'unknown_id'
        ? ['PERSISTED_QUERY_NOT_FOUND', 'No trusted document has this id']
        : [
            'PERSISTED_QUERY_NOT_IN_LIST',
            'Only the operations of the trusted documents list may run here: send a listed document or its id',
          ];
    return { kind: 'refused', reason, error: new GraphQLError(message, { extensions: { code } }) };
  }
}

/** Marks the context of an HTTP request whose document is outside the list (`log` mode): counted once it runs. */
const outsideTheList = Symbol('outside the trusted documents');

/** The context of a request `admit` let through outside the list, marked with why (`log` mode). */
export function markOutside<Context extends object>(context: Context, reason: OutsideReason | undefined): Context {
  if (reason) (context as { [outsideTheList]?: OutsideReason })[outsideTheList] = reason;
  return context;
}

/** The plugin of /graphql's Apollo server: a request marked outside the list is told as run when its operation executes. */
export function outsideRunsPlugin(onOutside: OnOutside): ApolloServerPlugin<BaseContext> {
  return {
    requestDidStart: async () => ({
      async executionDidStart({ contextValue }) {
        const reason = (contextValue as { [outsideTheList]?: OutsideReason })[outsideTheList];
        if (reason) onOutside('ran', reason);
      },
    }),
  };
}

type Entry = { id: string; text: unknown; entry: string };

/**
 * The first key that the top-level object of `json` (text JSON.parse has accepted) holds twice, which
 * JSON.parse would keep only the last value of; undefined when none does.
 */
function repeatedTopLevelKey(json: string): string | undefined {
  const keyFollows = /\s*:/y;
  const seen = new Set<string>();
  let depth = 0;
  for (let index = 0; index < json.length; index += 1) {
    const char = json[index]!;
    if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') depth -= 1;
    else if (char === '"') {
      let end = index + 1;
      while (json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
      const literal = json.slice(index, end + 1);
      index = end;
      // A string at the top level followed by `:` is a key.
      keyFollows.lastIndex = end + 1;
      if (depth === 1 && keyFollows.test(json)) {
        const key = JSON.parse(literal) as string;
        if (seen.has(key)) return key;
        seen.add(key);
      }
    }
  }
  return undefined;
}

/** The manifest's entries, in either format: graphql-codegen's id → text object, or Apollo's persisted query manifest. */
function entriesOf(source: string, manifest: unknown, fail: (message: string) => never): Entry[] {
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) fail('expected a JSON object');
  const object = manifest as Record<string, unknown>;
  if (object.format === 'apollo-persisted-query-manifest') {
    if (object.version !== 1) fail(`unsupported Apollo manifest version ${JSON.stringify(object.version)} (expected 1)`);
    if (!Array.isArray(object.operations)) fail('"operations" must be a list');
    return object.operations.map((operation: unknown, index) => {
      const { id, body, name } = (operation ?? {}) as { id?: unknown; body?: unknown; name?: unknown };
      const entry = `operations[${index}]${typeof name === 'string' ? ` (${name})` : ''}`;
      if (typeof id !== 'string' || id === '') fail(`${entry}: "id" must be a non-empty string`);
      return { id, text: body, entry };
    });
  }
  const repeated = repeatedTopLevelKey(source);
  if (repeated !== undefined) fail(`${JSON.stringify(repeated)}: the id is listed twice`);
  return Object.entries(object).map(([id, text]) => ({ id, text, entry: JSON.stringify(id) }));
}

/**
 * Reads the manifest at `file`, and parses and validates each document against `schema` under the
 * gateway's rules: a file that cannot be read, an entry that is not a valid document, or an id that is a
 * SHA-256 but not its document's, stops the start with a message naming the file and the entry.
 */
export function loadTrustedDocuments(
  file: string,
  mode: TrustedDocumentsMode,
  schema: GraphQLSchema,
  validationRules: readonly ValidationRule[],
  { introspection = true }: { introspection?: boolean } = {},
): TrustedDocuments {
  const fail = (message: string): never => {
    throw new ConfigError([`TRUSTED_DOCUMENTS=${JSON.stringify(file)}: ${message}`]);
  };
  // Where introspection is off (production without PLAYGROUND=1), a listed document may not turn it back on.
  const rules = [...specifiedRules, ...validationRules, ...(introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  const introspectionOff = introspection ? '' : ' (introspection is off: NODE_ENV=production without PLAYGROUND=1)';
  const entryOfId = new Map<string, string>();
  let manifest: unknown;
  let source = '';
  try {
    source = readFileSync(file, 'utf8');
    manifest = JSON.parse(source);
  } catch (error) {
    fail(`cannot be read as JSON (${(error as Error).message})`);
  }
  const documents = entriesOf(source, manifest, fail).map(({ id, text, entry }) => {
    if (typeof text !== 'string' || text.trim() === '') fail(`${entry}: the document must be a non-empty string`);
    const hash = sha256(text as string);
    const bare = withoutPrefix(id);
    const before = entryOfId.get(bare);
    if (before !== undefined) fail(`${entry}: the id ${JSON.stringify(bare)} is listed already, by ${before}`);
    entryOfId.set(bare, entry);
    if (/^[0-9a-f]{64}$/i.test(bare) && bare.toLowerCase() !== hash) fail(`${entry}: the id is not the SHA-256 of its document`);
    let document: DocumentNode;
    try {
      document = parse(text as string, { maxTokens: graphqlLimits.maxTokens });
    } catch (error) {
      return fail(`${entry}: ${(error as Error).message}`);
    }
    const errors = validate(schema, document, rules);
    if (errors.length > 0) fail(`${entry}: ${errors.map((error) => error.message).join('; ')}${introspectionOff}`);
    return { id, listed: { text: text as string, hash, document, entry } };
  });
  if (documents.length === 0) fail('it lists no document');
  return new TrustedDocuments(mode, documents);
}

/** The trusted documents the settings name (TRUSTED_DOCUMENTS, its mode; introspection as the playground has it), or none. */
export function trustedDocumentsFor(
  config: Pick<Config, 'trustedDocuments' | 'trustedDocumentsMode' | 'playground'>,
  schema: GraphQLSchema,
  validationRules: readonly ValidationRule[],
): TrustedDocuments | undefined {
  if (!config.trustedDocuments) return undefined;
  return loadTrustedDocuments(config.trustedDocuments, config.trustedDocumentsMode, schema, validationRules, {
    introspection: config.playground,
  });
}
