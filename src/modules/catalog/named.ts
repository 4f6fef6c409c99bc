// Lookups shared by the small named catalogs (tags, classes, states): find by id or 404, and
// keep names unique (409).
import { conflict, notFound } from '../../errors.js';
import { idOf } from '../entities/entity-input.js';

/** `find` is a catalog reader (`catalog.tag`, say). */
export function findById<K, T>(find: (key: K) => T | undefined, key: K | undefined, what: string, shown: string | number): T {
  const row = key === undefined ? undefined : find(key);
  if (!row) throw notFound(`${what} ${shown}`);
  return row;
}

/** Finds a row of a catalog keyed by string ids, given the id as a client wrote it. */
export const findByTextId = <T>(find: (id: string) => T | undefined, id: string, what: string): T => findById(find, idOf(id), what, id);

export function assertNameFree<K>(rows: Iterable<{ id: K; name: string }>, name: string, what: string, self?: K): void {
  for (const row of rows) if (row.name === name && row.id !== self) throw conflict(`a ${what} named "${name}" exists (id ${row.id})`);
}
