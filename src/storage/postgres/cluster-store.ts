import type { ClusterStore, NodeBeat } from '../cluster-types.js';
import type { PgDb } from './pg-db.js';
import { LEASE_COLUMNS, NODE_COLUMNS, toLeaseRecord, toNodeRecord, type LeaseDbRow, type NodeDbRow } from '../rows/cluster-row.js';

/**
 * The database's clock in ms. clock_timestamp(), not now(): now() is the transaction's start,
 * which for a statement queued behind a lock can lie well before the moment it writes.
 */
const NOW = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

export function createPgClusterStore(db: PgDb): ClusterStore {
  return {
    async heartbeat(n: NodeBeat) {
      const r = await db.one<{ at: number }>(`INSERT INTO cluster_nodes (${NODE_COLUMNS}) VALUES ($1, $2, $3, $4, ${NOW}, $5, $6)
        ON CONFLICT (id) DO UPDATE SET address = excluded.address, version = excluded.version, started_at = excluded.started_at,
          heartbeat_at = excluded.heartbeat_at, load = excluded.load, memory = excluded.memory
        RETURNING heartbeat_at AS at`, [n.id, n.address, n.version, n.startedAt, n.load, Math.round(n.memory)]);
      return r!.at;
    },
    nodes: async () => (await db.rows<NodeDbRow>(`SELECT ${NODE_COLUMNS} FROM cluster_nodes ORDER BY id`)).map(toNodeRecord),
    async leave(id: string) {
      await db.query('DELETE FROM cluster_nodes WHERE id = $1', [id]);
    },
    async claimLease(name: string, holder: string, ttlMs: number) {
      // One statement: the row lock makes two nodes claiming together take turns, and the
      // second sees the first's fresh expiry and gets nothing.
      const r = await db.one<LeaseDbRow>(`UPDATE cluster_leases SET
          epoch = CASE WHEN holder = $2 AND expires_at >= ${NOW} THEN epoch ELSE epoch + 1 END,
          holder = $2, expires_at = ${NOW} + $3
        WHERE name = $1 AND (holder = $2 OR holder IS NULL OR expires_at < ${NOW}) RETURNING ${LEASE_COLUMNS}`, [name, holder, Math.round(ttlMs)]);
      return r && toLeaseRecord(r);
    },
    async releaseLease(name: string, holder: string) {
      await db.query('UPDATE cluster_leases SET holder = NULL, expires_at = 0 WHERE name = $1 AND holder = $2', [name, holder]);
    },
    async lease(name: string) {
      const r = await db.one<LeaseDbRow>(`SELECT ${LEASE_COLUMNS} FROM cluster_leases WHERE name = $1`, [name]);
      return r && toLeaseRecord(r);
    },
    now: async () => (await db.one<{ now: number }>(`SELECT ${NOW} AS now`))!.now,
  };
}
