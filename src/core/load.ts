import DataLoader from 'dataloader';

// DataLoader helpers: batch answers in the order of their keys, and values a request makes once, on first
// use (a module's loaders), which each module declares itself so that the context need not know them.

export function byKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): (V | null)[] {
  const found = new Map<K, V>();
  for (const row of rows) found.set(keyOf(row), row);
  return keys.map((key) => found.get(key) ?? null);
}

export function groupByKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): V[][] {
  const groups = new Map<K, V[]>(keys.map((key) => [key, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((key) => groups.get(key) ?? []);
}

/** A request's own values, each made by its factory the first time the request asks for it. */
export type RequestScope = Map<object, unknown>;

/** `make`'s value for this request: made on first use, then the same one for the rest of the request. */
export function perRequest<Scoped extends { scope: RequestScope }, T>(make: (scoped: Scoped) => T): (scoped: Scoped) => T {
  return (scoped) => {
    const made = scoped.scope.get(make) as T | undefined;
    if (made !== undefined) return made;
    const value = make(scoped);
    scoped.scope.set(make, value);
    return value;
  };
}

type Scoped = { scope: RequestScope };

/** A request's loader of rows by id: `find` reads a batch of ids in one statement; an unknown id is null. */
export function loaderById<S extends Scoped, Row extends { id: number }>(find: (scoped: S, ids: number[]) => Promise<Row[]>) {
  return perRequest(
    (scoped: S) => new DataLoader<number, Row | null>(async (ids) => byKey(ids, await find(scoped, [...ids]), (row) => row.id)),
  );
}

/** A request's loader of the rows that belong to each key (`keyOf` names it), in `find`'s order; none is []. */
export function loaderOfGroups<S extends Scoped, Row, Value = Row>(
  find: (scoped: S, keys: number[]) => Promise<Row[]>,
  keyOf: (row: Row) => number,
  valueOf: (row: Row) => Value = (row) => row as unknown as Value,
) {
  return perRequest(
    (scoped: S) =>
      new DataLoader<number, Value[]>(async (keys) =>
        groupByKey(keys, await find(scoped, [...keys]), keyOf).map((group) => group.map(valueOf)),
      ),
  );
}
