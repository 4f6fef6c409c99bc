// The counters of the catalog's id spaces on PostgreSQL (storage/catalog-types.ts IdClaim):
// each space's counter is its table's identity sequence. Sequences are not transactional, so a
// claim is made safe against other writers (other nodes) by an advisory lock per space, taken
// at the start of the batch's transaction and held until it ends: the check "nobody gave out
// ids above `after`" and the move to `last` happen with no other writer of that space in
// between. A batch that rolls back after moving a counter leaves a gap: ids are never reused,
// so that is harmless.
import type { CatalogWrite, IdClaim, IdSpace } from '../catalog-types.js';
import { IdsTakenError } from '../catalog-types.js';
import type { PgQueryable } from './pg-db.js';

/** The identity sequence of each space's table (PostgreSQL names them <table>_<column>_seq). */
const SEQUENCE_OF: Record<IdSpace, string> = { entities: 'entities_id_seq', props: 'entity_props_id_seq', tags: 'tags_id_seq', classes: 'classes_id_seq' };
export const ID_SPACES = Object.keys(SEQUENCE_OF).sort() as IdSpace[];
/** Advisory lock keys, one per space (any constants shared by every node). */
const LOCK_OF = Object.fromEntries(ID_SPACES.map((s, i) => [s, 7_411_020 + i])) as Record<IdSpace, number>;

// The highest id given out: a sequence not yet called has given out nothing below last_value.
const COUNTERS_SQL = `SELECT ${ID_SPACES.map((s) => `(SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM ${SEQUENCE_OF[s]}) AS ${s}`).join(', ')}`;

export async function readCounters(q: PgQueryable): Promise<Record<IdSpace, number>> {
  return (await q.one<Record<IdSpace, number>>(COUNTERS_SQL))!;
}

/** The highest explicit id the writes store per space (rows stored without a claim move the counter too). */
function highestIds(writes: readonly CatalogWrite[]): Partial<Record<IdSpace, number>> {
  const top: Partial<Record<IdSpace, number>> = {};
  const see = (space: IdSpace, id: string) => {
    const n = Number(id);
    if (Number.isSafeInteger(n) && n > (top[space] ?? 0)) top[space] = n;
  };
  for (const w of writes) {
    if (w.op === 'putObject' || w.op === 'putLink') see('entities', w.row.id);
    else if (w.op === 'putProp') see('props', w.row.id);
    else if (w.op === 'putTag') see('tags', w.row.id);
    else if (w.op === 'putClass') see('classes', w.row.id);
  }
  return top;
}

/** What a batch will do to the counters, decided at its start and finished at its end. */
export interface CounterMoves {
  /** Call at the end of the transaction, after the writes: moves the counters up. */
  finish(): Promise<void>;
}

/**
 * In the batch's transaction, before its writes: locks the spaces whose counters the batch
 * may move (claimed ones, and ones its explicit ids pass), in one fixed order so two batches
 * cannot deadlock, then refuses the batch (IdsTakenError) if a claim no longer holds.
 */
export async function lockAndCheckClaims(q: PgQueryable, writes: readonly CatalogWrite[], claims: readonly IdClaim[]): Promise<CounterMoves> {
  const top = highestIds(writes);
  for (const c of claims) top[c.space] = Math.max(top[c.space] ?? 0, c.last);
  const wanted = ID_SPACES.filter((s) => top[s] !== undefined);
  if (wanted.length === 0) return { finish: async () => {} };
  // Counters only grow: a space whose counter is already past the batch's ids and that no
  // claim names needs no lock (the common case of updates to existing rows).
  const before = await readCounters(q);
  const claimed = new Set(claims.map((c) => c.space));
  const locked = wanted.filter((s) => claimed.has(s) || top[s]! > before[s]);
  if (locked.length === 0) return { finish: async () => {} };
  for (const s of locked) await q.query('SELECT pg_advisory_xact_lock($1)', [LOCK_OF[s]]);
  const now = await readCounters(q);
  for (const c of claims) if (now[c.space] > c.after) throw new IdsTakenError(c.space);
  return {
    async finish() {
      for (const s of locked) {
        if (top[s]! > now[s]) await q.query(`SELECT setval('${SEQUENCE_OF[s]}', $1)`, [top[s]]);
      }
    },
  };
}
