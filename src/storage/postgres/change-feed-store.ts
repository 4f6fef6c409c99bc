import type { ChangeFeedStore, ChangeRow } from '../change-feed-types.js';
import type { PgDb } from './pg-db.js';

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

export function createPgChangeFeedStore(db: PgDb): ChangeFeedStore {
  return {
    async append(topic: string, key: string, origin: string, payload?: string) {
      await db.query(`INSERT INTO changes (topic, key, origin, payload, at) VALUES ($1, $2, $3, $4, ${NOW})`, [topic, key, origin, payload ?? null]);
    },
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
