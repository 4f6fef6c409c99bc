// Lookups shared by the small named catalogs (tags, classes, states): find by id or 404, and
// keep names unique (409).
import { conflict, notFound } from '../../errors.js';
import { idOf } from '../entities/entity-input.js';

export function findById<K, T>(rows: ReadonlyMap<K, T>, key: K | undefined, what: string, shown: string | number): T {
  const row = key === undefined ? undefined : rows.get(key);
  if (!row) throw notFound(`${what} ${shown}`);
  return row;
}

/** Finds a row of a catalog keyed by string ids, given the id as a client wrote it. */
export const findByTextId = <T>(rows: ReadonlyMap<string, T>, id: string, what: string): T => findById(rows, idOf(id), what, id);

export function assertNameFree<K>(rows: Iterable<{ id: K; name: string }>, name: string, what: string, self?: K): void {
  for (const row of rows) if (row.name === name && row.id !== self) throw conflict(`a ${what} named "${name}" exists (id ${row.id})`);
}
