// This node as a member of the cluster (SCALE-OUT.md): a heartbeat every `heartbeatMs` that
// registers it in the database, and the engine's lease, claimed or renewed at the same beat.
// On SQLite there is one node, which joins and leads alike, so both backends answer the same.
//
// Leading is decided locally, without asking the database again: the lease was granted for
// `leaseMs` from a moment after the claim was sent, so until sentAt + leaseMs (less a margin
// for the two clocks' rates) nobody else can hold it. A leader cut off from the database thus
// stops leading before its lease expires there and another node takes it over. The list of
// live members (what checks are spread over) is held to the same rule: a node whose own
// heartbeat is not certainly on record counts itself out, as the others do.
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { ClusterNodeRow, ClusterStore } from '../../storage/cluster-types.js';
import { createLoadSampler } from './process-load.js';
import { withTimeout } from '../../core/with-timeout.js';

/** The lease the engine's leader holds. */
export const ENGINE_LEASE = 'engine';

export interface MembershipSettings {
  heartbeatMs: number;
  leaseMs: number;
}

/** A beat that takes longer than this many heartbeats counts as failed (a silent network). */
const BEAT_TIMEOUT_BEATS = 2;

export interface MembershipDeps {
  store: ClusterStore;
  nodeId: string;
  version: string;
  settings: MembershipSettings;
  logger: Logger;
  /**
   * false: this node is the database's only user (SQLite). It is then the one member and the
   * leader from its start to its stop, whatever its heartbeats meet (a long write holding the
   * database for seconds must not stop its checks); it still beats, for GET /cluster.
   */
  shared?: boolean;
}

export interface ClusterMember {
  id: string;
  address: string;
  role: 'leader' | 'follower';
  /** Its latest heartbeat, ms since the epoch (database clock). */
  heartbeat: number;
  /** Heard from within three heartbeats; a node that stopped on purpose is not listed at all. */
  live: boolean;
  version: string;
  load: number;
  memory: number;
  startedAt: number;
}

export interface ClusterView {
  nodes: ClusterMember[];
  /** The lease's holder while it is valid, with the epoch of its reign. */
  leader: { id: string; epoch: number } | null;
  /** The node answering. */
  self: string;
  /** The database's clock when the view was read, ms. */
  now: number;
}

export interface Membership {
  readonly nodeId: string;
  /** Joins (first heartbeat and claim done when this resolves), then beats until stop. */
  start(address: string): Promise<void>;
  /** Whether this node leads now: its lease is certainly valid at this moment. */
  isLeader(): boolean;
  /** The epoch of this node's reign while it leads. */
  epoch(): number | undefined;
  /** Told when this node starts or stops leading. */
  onLeadership(listener: (leading: boolean) => void): void;
  /**
   * The ids of the live nodes (this one among them), sorted, as of the latest heartbeat: the
   * same list on every node, up to a heartbeat's delay. Empty while this node's own heartbeat
   * is not certainly recorded (cut off from the database, the others count it dead).
   */
  members(): readonly string[];
  /** Told when `members()` changes. */
  onMembers(listener: (members: readonly string[]) => void): void;
  view(): Promise<ClusterView>;
  /** Removes another node's record (a dead one: a live node would register again at its next beat). */
  forget(id: string): Promise<void>;
  /** Forgets the nodes not heard from for `olderThanMs` (the leader's hourly purge). */
  pruneDead(olderThanMs: number): Promise<void>;
  /** Gives the lease up (another node takes over at its next beat) and leaves. */
  stop(): Promise<void>;
}

export function createMembership({ store, nodeId, version, settings, logger, shared = true }: MembershipDeps): Membership {
  const { heartbeatMs, leaseMs } = settings;
  // Clocks may run at slightly different rates: a tenth of the lease (at least 50 ms) is kept back.
  const margin = Math.max(50, Math.floor(leaseMs / 10));
  // A node not heard from for three heartbeats is dead: its checks move. A node counts itself
  // out earlier (its own beat not certainly recorded for three beats less a margin), so the
  // two never run the same check at once.
  const deadAfterMs = 3 * heartbeatMs;
  const memberMargin = Math.max(50, Math.floor(deadAfterMs / 10));
  const sample = createLoadSampler();
  const listeners = new Set<(leading: boolean) => void>();
  const memberListeners = new Set<(members: readonly string[]) => void>();
  /** Live node ids of the latest heartbeat, and until when (local clock) that beat is certainly on record. */
  let live: readonly string[] = [];
  let liveUntil = 0;
  let shownMembers: readonly string[] = [];
  let address = '';
  let startedAt = 0;
  let leaderUntil = 0;
  let reign: number | undefined;
  let wasLeading = false;
  let failing = false;
  let started = false;
  let stopped = false;
  let twinWarned = false;
  /** Heartbeats recorded by this run. */
  let beats = 0;
  let beatTimer: NodeJS.Timeout | undefined;
  let lapseTimer: NodeJS.Timeout | undefined;
  /** The beat under way (settled: none); a beat that hangs is not joined by another. */
  let current: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;

  const isLeader = () => !stopped && (shared ? performance.now() < leaderUntil : started);
  const members = () => (stopped ? [] : shared ? (performance.now() < liveUntil ? live : []) : started ? [nodeId] : []);
  const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

  /** One listener's failure must not keep the change from the others, nor end a timer's callback. */
  const tell = <T>(set: Set<(v: T) => void>, value: T) => {
    for (const l of set) {
      try {
        l(value);
      } catch (err) {
        logger.error({ err, nodeId }, 'cluster: a listener failed');
      }
    }
  };

  const noticeChange = () => {
    const now = members();
    if (!sameList(now, shownMembers)) {
      shownMembers = now;
      tell(memberListeners, now);
    }
    const leading = isLeader();
    if (leading !== wasLeading) {
      wasLeading = leading;
      logger.info({ nodeId, epoch: reign }, leading ? 'cluster: this node leads the engine' : 'cluster: this node no longer leads');
      tell(listeners, leading);
    }
    // The next deadline that ends leading or membership unless a beat renews it first (the
    // database does not answer): the listeners hear of it when it comes, not a beat later.
    clearTimeout(lapseTimer);
    const t = performance.now();
    const deadline = Math.min(...[leaderUntil, liveUntil].filter((d) => d > t));
    if (!stopped && Number.isFinite(deadline)) lapseTimer = setTimeout(noticeChange, deadline - t + 1).unref();
  };

  const beat = async () => {
    try {
      startedAt ||= await store.now();
      // Read before this beat's write: a row carrying another start time than ours, after we
      // wrote ours, is another process beating under this id (a copied DATA_DIR, one NODE_ID
      // for two nodes): said once, loudly. Each would run every check.
      const rows = await store.nodes();
      const own = rows.find((r) => r.id === nodeId);
      if (beats > 0 && own && own.startedAt !== startedAt && !twinWarned) {
        twinWarned = true;
        logger.error({ nodeId }, 'cluster: another process uses this node id; give each node its own NODE_ID (or DATA_DIR)');
      }
      // A beat that outlived the stop must not register this node again, nor take the lease.
      if (stopped) return;
      const beatSentAt = performance.now();
      const dbNow = await store.heartbeat({ id: nodeId, address, version, startedAt, ...sample() });
      beats++;
      live = [...new Set([nodeId, ...rows.filter((r) => r.heartbeatAt >= dbNow - deadAfterMs).map((r) => r.id)])].sort();
      liveUntil = beatSentAt + deadAfterMs - memberMargin;
      if (stopped) return;
      const sentAt = performance.now();
      const lease = await store.claimLease(ENGINE_LEASE, nodeId, leaseMs);
      if (lease) {
        leaderUntil = sentAt + leaseMs - margin;
        reign = lease.epoch;
      } else {
        leaderUntil = 0;
      }
      if (failing) logger.info({ nodeId }, 'cluster: heartbeat recorded again');
      failing = false;
    } catch (err) {
      // The lease lapses by itself (leaderUntil passes); one line per outage, not per beat.
      if (!failing) logger.warn({ err, nodeId }, 'cluster: heartbeat failed; retrying at every beat');
      failing = true;
    }
  };

  /**
   * Runs a beat, waiting for it at most BEAT_TIMEOUT_BEATS heartbeats: on a silent network a
   * query can hang for minutes, and the node must go on deciding (its deadlines pass) and
   * beating once the hung one gives up. A beat still hanging is not doubled.
   */
  const tick = async () => {
    if (!current) {
      const run = beat();
      current = run;
      void run.finally(() => {
        if (current === run) current = undefined;
      });
    }
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([current, new Promise<void>((r) => (timeout = setTimeout(r, BEAT_TIMEOUT_BEATS * heartbeatMs)))]);
    clearTimeout(timeout);
    noticeChange();
  };

  const schedule = () => {
    if (stopped) return;
    beatTimer = setTimeout(() => void tick().finally(schedule), heartbeatMs);
    beatTimer.unref();
  };

  return {
    nodeId,
    async start(at: string) {
      address = at;
      // A lease still held under this id is a previous run's (killed before it could give it
      // up): given up first, so that this run's reign has an epoch of its own.
      await store.releaseLease(ENGINE_LEASE, nodeId).catch(() => undefined);
      started = true;
      await tick();
      schedule();
    },
    isLeader,
    epoch: () => (isLeader() ? reign : undefined),
    onLeadership(listener) {
      listeners.add(listener);
    },
    members,
    onMembers(listener) {
      memberListeners.add(listener);
    },
    async view() {
      const [rows, lease, now] = await Promise.all([store.nodes(), store.lease(ENGINE_LEASE), store.now()]);
      const holder = lease?.holder !== undefined && lease.expiresAt > now ? lease : undefined;
      const live = (r: ClusterNodeRow) => r.heartbeatAt >= now - deadAfterMs;
      const nodes = rows.map((r): ClusterMember => ({
        id: r.id, address: r.address, role: holder?.holder === r.id && live(r) ? 'leader' : 'follower', heartbeat: r.heartbeatAt, live: live(r),
        version: r.version, load: r.load, memory: r.memory, startedAt: r.startedAt,
      }));
      return { nodes, leader: holder ? { id: holder.holder!, epoch: holder.epoch } : null, self: nodeId, now };
    },
    forget: (id: string) => store.leave(id),
    async pruneDead(olderThanMs: number) {
      const now = await store.now();
      for (const r of await store.nodes()) if (r.id !== nodeId && r.heartbeatAt < now - olderThanMs) await store.leave(r.id);
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        clearTimeout(beatTimer);
        clearTimeout(lapseTimer);
        // A beat under way ends first (at most the beat timeout): it must not register this
        // node again after it has left.
        let timeout: NodeJS.Timeout | undefined;
        await Promise.race([current?.catch(() => undefined), new Promise<void>((r) => (timeout = setTimeout(r, BEAT_TIMEOUT_BEATS * heartbeatMs)))]);
        clearTimeout(timeout);
        noticeChange();
        try {
          // Bounded: on a silent network the rest of the stop must not wait for these.
          await withTimeout(store.releaseLease(ENGINE_LEASE, nodeId), heartbeatMs);
          await withTimeout(store.leave(nodeId), heartbeatMs);
        } catch (err) {
          logger.warn({ err, nodeId }, 'cluster: could not leave cleanly; the others see this node dead after three heartbeats');
        }
      })();
      return stopping;
    },
  };
}
