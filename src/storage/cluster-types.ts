// Cluster membership and the engine's leadership lease (issue 19, SCALE-OUT.md). Times are the
// database's clock, not the nodes': a lease must mean the same moment to every node, and the
// nodes' clocks may disagree by more than a lease lasts.

export interface ClusterNodeRow {
  id: string;
  /** The node's HTTP host:port, as other nodes and operators reach it. */
  address: string;
  version: string;
  /** When the node (this run of it) started, ms since the epoch (database clock). */
  startedAt: number;
  /** Its latest heartbeat, ms since the epoch (database clock). */
  heartbeatAt: number;
  /** Share of one core the process used since its previous heartbeat (0.25 = a quarter). */
  load: number;
  /** Resident memory, bytes. */
  memory: number;
}

export type NodeBeat = Omit<ClusterNodeRow, 'heartbeatAt'>;

export interface LeaseRow {
  name: string;
  /** Node id holding it; undefined when nobody ever held it or it was released. */
  holder: string | undefined;
  /** Counts the changes of holder: a write made under an older epoch comes from a deposed leader. */
  epoch: number;
  /** Database clock, ms: after this the lease is free. */
  expiresAt: number;
}

export interface ClusterStore {
  /** Records a node's heartbeat (inserting it on its first); answers the database's clock, ms. */
  heartbeat(node: NodeBeat): Promise<number>;
  /** Every node that ever registered and has not left, by id. */
  nodes(): Promise<ClusterNodeRow[]>;
  /** Removes a node that stops on purpose (it is gone, not dead). */
  leave(id: string): Promise<void>;
  /**
   * Takes or renews the lease for `ttlMs` from the database's now when it is free, expired or
   * already ours; the epoch goes up when the holder changes. Undefined: somebody else holds it.
   */
  claimLease(name: string, holder: string, ttlMs: number): Promise<LeaseRow | undefined>;
  /** Gives the lease up at once if `holder` has it (a graceful stop hands over without waiting). */
  releaseLease(name: string, holder: string): Promise<void>;
  lease(name: string): Promise<LeaseRow | undefined>;
  /** The database's clock, ms. */
  now(): Promise<number>;
}
