import {
  getNamedType,
  getOperationAST,
  isObjectType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { LRUCache } from 'lru-cache';

// Which operations read only what anyone may read and a shared cache may keep (docs/operations.md, HTTP
// caching): decided from the document once, since graphql-jit runs the operations and Apollo's
// cache-control plugin, which watches resolvers run, never sees their fields.

/**
 * The public catalogue: activities, their classification and follow-up, their pages, and their uids and
 * flags. A field is public only if listed here (with `__typename` on these types): a field added to one of
 * these types stays private until it is listed.
 */
export const PUBLIC_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Query: ['activity', 'activities', 'activityFlags'],
  Activity: [
    'id',
    'uid',
    'name',
    'description',
    'flags',
    'flag',
    'data',
    'supportingInfo',
    'followUpActivity',
    'followUpActivityId',
    'classification',
    'createdAt',
    'updatedAt',
  ],
  ActivityClassification: ['id', 'key', 'name'],
  ActivityConnection: ['edges', 'pageInfo', 'totalCount'],
  ActivityEdge: ['cursor', 'node'],
  PageInfo: ['hasNextPage', 'endCursor'],
  ActivityFlag: ['uid', 'flag'],
};

/**
 * Whether the operation (`operationName`, or the document's only one) is a query every field of which,
 * through fragments, is in PUBLIC_FIELDS. A mutation, a subscription, introspection, `viewer`,
 * `classroomActivity`, `_entities`, `_service`, or a document naming no such operation: false.
 */
export function isPublicOperation(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): boolean {
  const operation = getOperationAST(document, operationName);
  const queryType = schema.getQueryType();
  if (!operation || operation.operation !== OperationTypeNode.QUERY || !queryType) return false;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  /** Each fragment judged once (its type is its own condition), so that spreads repeated at every level cost nothing more. */
  const judged = new Map<string, boolean>();

  const fragmentIsPublic = (name: string): boolean => {
    const known = judged.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    // Provisionally false: a fragment spreading itself (invalid, refused by validation) ends here.
    judged.set(name, false);
    const verdict = fragment !== undefined && selectionIsPublic(fragment.typeCondition.name.value, fragment.selectionSet);
    judged.set(name, verdict);
    return verdict;
  };

  const selectionIsPublic = (typeName: string, selectionSet: SelectionSetNode): boolean => {
    const allowed = PUBLIC_FIELDS[typeName];
    const type = schema.getType(typeName);
    if (!allowed || !isObjectType(type)) return false;
    return selectionSet.selections.every((selection) => {
      if (selection.kind === Kind.FRAGMENT_SPREAD) return fragmentIsPublic(selection.name.value);
      if (selection.kind === Kind.INLINE_FRAGMENT)
        return selectionIsPublic(selection.typeCondition?.name.value ?? typeName, selection.selectionSet);
      const name = selection.name.value;
      if (name === '__typename') return selection.selectionSet === undefined;
      const field = type.getFields()[name];
      if (!field || !allowed.includes(name)) return false;
      return selection.selectionSet === undefined || selectionIsPublic(getNamedType(field.type).name, selection.selectionSet);
    });
  };

  return selectionIsPublic(queryType.name, operation.selectionSet);
}

/** Operations judged so far, keyed as the executor keys compiled ones (src/graphql/executor.ts): a verdict costs one walk per document. */
const JUDGED_OPERATIONS = 1_000;

/** A verdict's key: the document's hash and the name asked for, an absent name apart from an empty one. */
const keyOf = (queryHash: string, operationName: string | null | undefined) =>
  operationName === undefined || operationName === null ? `${queryHash}` : `${queryHash}:${JSON.stringify(operationName)}`;

export class PublicDocuments {
  private readonly verdicts = new LRUCache<string, boolean>({ max: JUDGED_OPERATIONS });

  /**
   * Whether the document's operation is public, judged on first sight. A name that picks no operation (an
   * error the request is answered with) is not public, and no verdict is kept for it.
   */
  judge(schema: GraphQLSchema, document: DocumentNode, queryHash: string, operationName: string | null | undefined): boolean {
    const key = keyOf(queryHash, operationName);
    const known = this.verdicts.get(key);
    if (known !== undefined) return known;
    if (!getOperationAST(document, operationName)) return false;
    const verdict = isPublicOperation(schema, document, operationName);
    this.verdicts.set(key, verdict);
    return verdict;
  }

  /** Whether the document with this hash (SHA-256 of its text, hex) was judged public; false when not judged (yet). */
  judgedPublic(queryHash: string, operationName: string | null | undefined): boolean {
    return this.verdicts.get(keyOf(queryHash, operationName)) === true;
  }
}
