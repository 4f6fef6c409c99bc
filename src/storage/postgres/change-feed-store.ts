import type { ChangeFeedStore, ChangeRow, FeedRow } from '../change-feed-types.js';
import type { PgDb, PgQueryable } from './pg-db.js';

const NOW = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

interface Row {
  seq: string;
  topic: string;
  key: string;
  origin: string;
  payload: string | null;
  at: string;
}

const toRecord = (r: Row): ChangeRow => ({ seq: Number(r.seq), topic: r.topic, key: r.key, origin: r.origin, payload: r.payload ?? undefined, at: Number(r.at) });

const APPEND = `INSERT INTO changes (topic, key, origin, payload, at) VALUES ($1, $2, $3, $4, ${NOW})`;

/** Appends `rows` through `q`: the pool, or the transaction of the change they tell of. */
export async function appendFeedRows(q: PgQueryable, rows: readonly FeedRow[]): Promise<void> {
  for (const r of rows) await q.query(APPEND, [r.topic, r.key, r.origin, r.payload ?? null]);
}

export function createPgChangeFeedStore(db: PgDb): ChangeFeedStore {
  return {
    append: (topic: string, key: string, origin: string, payload?: string) => appendFeedRows(db, [{ topic, key, origin, payload }]),
    pick: async (seqs: readonly number[]) =>
      seqs.length === 0 ? [] : (await db.rows<Row>('SELECT seq, topic, key, origin, payload, at FROM changes WHERE seq = ANY($1::bigint[]) ORDER BY seq', [seqs])).map(toRecord),
    after: async (seq: number, limit: number) =>
      (await db.rows<Row>('SELECT seq, topic, key, origin, payload, at FROM changes WHERE seq > $1 ORDER BY seq LIMIT $2', [seq, limit]))
        .map(toRecord),
    last: async () => Number((await db.one<{ seq: string | null }>('SELECT max(seq) AS seq FROM changes'))?.seq ?? 0),
    async purge(before: number) {
      await db.query('DELETE FROM changes WHERE at < $1', [before]);
    },
  };
}
