import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

// Which fields an operation selects below a resolver's field, so that one SQL statement can bring what the
// nested fields will read (their loaders are primed with it). It only decides what to fetch: a field it
// misses is still answered by its loader, one it over-counts costs some columns. Never correctness.

export type Selection = ReadonlyMap<string, readonly FieldNode[]>;

/** The fields selected under `fieldNodes` (through fragments and inline fragments), by name, aliases merged. */
export function selectionOf(fieldNodes: readonly FieldNode[], fragments: GraphQLResolveInfo['fragments']): Selection {
  const fields = new Map<string, FieldNode[]>();
  const seenFragments = new Set<string>();
  const pending: SelectionSetNode[] = [];
  for (const node of fieldNodes) if (node.selectionSet) pending.push(node.selectionSet);
  for (let set = pending.pop(); set; set = pending.pop()) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const list = fields.get(name);
        if (list) list.push(selection);
        else fields.set(name, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) pending.push(selection.selectionSet);
      else if (!seenFragments.has(selection.name.value)) {
        seenFragments.add(selection.name.value);
        const fragment = fragments[selection.name.value];
        if (fragment) pending.push(fragment.selectionSet);
      }
    }
  }
  return fields;
}

/** The selection of a resolver's own field. */
export const selectionAt = (info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): Selection =>
  selectionOf(info.fieldNodes, info.fragments);

/**
 * A planner that plans each field of each operation once: `plan` runs on the field's first request, and
 * later requests of the same document (whose nodes Apollo's document cache keeps) reuse its plan.
 */
export function planOncePerOperation<Plan>(plan: (info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>) => Plan) {
  const plans = new WeakMap<FieldNode, { fieldNodes: readonly FieldNode[]; plan: Plan }>();
  return (info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): Plan => {
    const first = info.fieldNodes[0]!;
    const known = plans.get(first);
    // The same first node with other merged nodes: the same fragment spread in another operation.
    if (known && known.fieldNodes.length === info.fieldNodes.length && known.fieldNodes.every((node, i) => node === info.fieldNodes[i]))
      return known.plan;
    const made = plan(info);
    plans.set(first, { fieldNodes: [...info.fieldNodes], plan: made });
    return made;
  };
}
