// cluster_nodes and cluster_leases rows as both dialects store them.
import type { ClusterNodeRow, LeaseRow } from '../cluster-types.js';

export const NODE_COLUMNS = 'id, address, version, started_at, heartbeat_at, load, memory';
export const LEASE_COLUMNS = 'name, holder, epoch, expires_at';

export interface NodeDbRow {
  id: string;
  address: string;
  version: string;
  started_at: number;
  heartbeat_at: number;
  load: number;
  memory: number;
}

export interface LeaseDbRow {
  name: string;
  holder: string | null;
  epoch: number;
  expires_at: number;
}

export const toNodeRecord = (r: NodeDbRow): ClusterNodeRow => ({
  id: r.id, address: r.address, version: r.version, startedAt: Number(r.started_at), heartbeatAt: Number(r.heartbeat_at), load: Number(r.load), memory: Number(r.memory),
});

export const toLeaseRecord = (r: LeaseDbRow): LeaseRow => ({ name: r.name, holder: r.holder ?? undefined, epoch: Number(r.epoch), expiresAt: Number(r.expires_at) });
