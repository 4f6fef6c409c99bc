// New ids for the catalog's changes, issued against the store's counters. A change asks for
// ids while it builds its writes (synchronously: a bulk may create thousands of properties in
// one change); the ids it took go to the store with its writes as claims, and the store, whose
// counters are the authority, accepts them only if no other writer (a second node on the same
// database) gave out ids of that range first (storage/catalog-types.ts IdClaim). The counters
// held here are only the last values seen; on a refused claim they are read again and the
// change runs again. So ids are never given out twice, even with two processes, and never
// reused after deletion, since the store's counters never go down.
import type { CatalogStore, IdClaim, IdSpace } from '../../storage/catalog-types.js';

/**
 * Clients of this API family know 24-character ids and treat a one-character id as the root
 * ("1") when they walk `_parents`: new entity ids start at 10, on new and existing
 * installations alike (ids 2..9 given out before keep working; none is given out again).
 */
const FIRST_ID: Record<IdSpace, number> = { entities: 10, props: 1, tags: 1, classes: 1 };

export class IdIssuer {
  /** The store's counters as last seen (highest id given out per space). */
  private known: Record<IdSpace, number>;
  /** The highest id given out per space by the change under way. */
  private taken: Partial<Record<IdSpace, number>> = {};

  constructor(lastIds: Record<IdSpace, number>) {
    this.known = { ...lastIds };
  }

  /** A fresh id in one id space for the change under way. */
  next(space: IdSpace): string {
    const id = (this.taken[space] ?? Math.max(this.known[space], FIRST_ID[space] - 1)) + 1;
    this.taken[space] = id;
    return String(id);
  }

  /** The ids the change under way took, as the store checks them. */
  claims(): IdClaim[] {
    return (Object.entries(this.taken) as Array<[IdSpace, number]>).map(([space, last]) => ({ space, after: this.known[space], last }));
  }

  /** The change's writes (and its claims) are stored: its ids are the counters now. */
  stored(): void {
    for (const [space, last] of Object.entries(this.taken) as Array<[IdSpace, number]>) this.known[space] = last;
    this.taken = {};
  }

  /** The change ended without storing: its ids were never given out. */
  dropped(): void {
    this.taken = {};
  }

  /** Reads the store's counters again (after a refused claim). */
  async refresh(store: Pick<CatalogStore, 'lastIds'>): Promise<void> {
    this.taken = {};
    this.known = await store.lastIds();
  }
}
