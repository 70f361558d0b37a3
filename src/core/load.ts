// Small helpers for DataLoader batch functions: answer in the order of the keys.

import type { Db } from '../db/client.ts';

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

/** A module's loaders, each a function that makes it for one request's database client. */
export type LoaderFactories = Record<string, (db: Db) => unknown>;
export type LoadersOf<F extends LoaderFactories> = { readonly [K in keyof F]: ReturnType<F[K]> };

const database = Symbol('database');

/**
 * A request's loaders, each made when first read: a request touches one or two of them, and making all
 * of them on every request was measurable (README Performance). The getters live on one shared
 * prototype; a loader, once made, shadows its getter on the request's object.
 */
export function loadersOnFirstUse<F extends LoaderFactories>(factories: F): (db: Db) => LoadersOf<F> {
  const shared = {};
  for (const [name, make] of Object.entries(factories)) {
    Object.defineProperty(shared, name, {
      get(this: { [database]: Db }) {
        const loader = make(this[database]);
        Object.defineProperty(this, name, { value: loader });
        return loader;
      },
    });
  }
  return (db) => Object.assign(Object.create(shared) as object, { [database]: db }) as LoadersOf<F>;
}
