import type Database from 'better-sqlite3';
import type { ClusterStore, NodeBeat } from '../cluster-types.js';
import type { WriteGate } from './write-gate.js';
import { LEASE_COLUMNS, NODE_COLUMNS, toLeaseRecord, toNodeRecord, type LeaseDbRow, type NodeDbRow } from '../rows/cluster-row.js';

// One process owns a SQLite database, so the process's clock is the database's clock.
export function createSqliteClusterStore(db: Database.Database, gate: WriteGate, clock: () => number = Date.now): ClusterStore {
  const beat = db.prepare(`INSERT INTO cluster_nodes (${NODE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET address = excluded.address, version = excluded.version, started_at = excluded.started_at,
      heartbeat_at = excluded.heartbeat_at, load = excluded.load, memory = excluded.memory`);
  const nodes = db.prepare(`SELECT ${NODE_COLUMNS} FROM cluster_nodes ORDER BY id`);
  const leave = db.prepare('DELETE FROM cluster_nodes WHERE id = ?');
  const claim = db.prepare(`UPDATE cluster_leases SET
      epoch = CASE WHEN holder = @holder AND expires_at >= @now THEN epoch ELSE epoch + 1 END,
      holder = @holder, expires_at = @now + @ttl
    WHERE name = @name AND (holder = @holder OR holder IS NULL OR expires_at < @now) RETURNING ${LEASE_COLUMNS}`);
  const release = db.prepare('UPDATE cluster_leases SET holder = NULL, expires_at = 0 WHERE name = ? AND holder = ?');
  const lease = db.prepare(`SELECT ${LEASE_COLUMNS} FROM cluster_leases WHERE name = ?`);
  return {
    heartbeat: (n: NodeBeat) => gate.run(() => {
      const now = clock();
      beat.run(n.id, n.address, n.version, n.startedAt, now, n.load, n.memory);
      return now;
    }),
    nodes: async () => (nodes.all() as NodeDbRow[]).map(toNodeRecord),
    leave: (id: string) => gate.run(() => void leave.run(id)),
    claimLease: (name: string, holder: string, ttlMs: number) => gate.run(() => {
      const r = claim.get({ name, holder, ttl: Math.round(ttlMs), now: clock() }) as LeaseDbRow | undefined;
      return r && toLeaseRecord(r);
    }),
    releaseLease: (name: string, holder: string) => gate.run(() => void release.run(name, holder)),
    lease: async (name: string) => {
      const r = lease.get(name) as LeaseDbRow | undefined;
      return r && toLeaseRecord(r);
    },
    now: async () => clock(),
  };
}
