// Keeps this node's in-memory copies current with what the other nodes change (SCALE-OUT.md:
// read models follow a change feed). A change is published after its write has committed; every
// node reads the feed from the last sequence it saw, a few times a second, and hands each
// change of another node to the topic's subscribers (which drop or re-read their copy).
//
// Sequences can commit out of order on PostgreSQL (two transactions take 7 and 8; 8 commits
// first). A reader reads on after the highest it has seen, and asks again by number for each
// sequence below that it has not seen, from the moment it noticed the hole for GAP_WAIT_MS (a
// rolled-back insert leaves a hole for ever); then it passes that one.
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { ChangeFeedStore, ChangeRow } from '../../storage/change-feed-types.js';

const PAGE = 1000;
const GAP_WAIT_MS = 10_000;

/** `payload`: what the change was, when its publisher sent it along (JSON). */
export type ChangeListener = (key: string, payload: string | undefined) => void | Promise<void>;

export interface ChangeFeed {
  /** Tells the other nodes that `key` of `topic` changed (after the change has committed). */
  publish(topic: string, key: string, payload?: string): Promise<void>;
  subscribe(topic: string, listener: ChangeListener): void;
  /**
   * Notes where the feed stands now: called before this node loads its copies from the store,
   * so that reading starts there and no change committed during the loads is missed (one
   * already loaded is taken again: the subscribers' updates are idempotent).
   */
  mark(): Promise<void>;
  /** Starts reading after the mark (made now if none was), once the subscribers are in place. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Forgets changes older than a day (the hourly purge). */
  purge(): Promise<void>;
  /** Ms since the feed was last read through (0: not reading, a database only this node uses). */
  behindMs(): number;
}

export function createChangeFeed({ store, nodeId, pollMs, clock, logger, shared = true }: {
  store: ChangeFeedStore;
  nodeId: string;
  pollMs: number;
  clock: () => number;
  logger: Logger;
  /** false: no other node uses the database (SQLite): nothing is published or read. */
  shared?: boolean;
}): ChangeFeed {
  const listeners = new Map<string, Set<ChangeListener>>();
  /** Every sequence up to `low` is seen (or given up); `seen` holds those above it. */
  let low = 0;
  /** The highest sequence seen. */
  let high = 0;
  const seen = new Set<number>();
  /** Sequences between `low` and `high` not seen yet, and since when each is missed (monotonic ms). */
  const missing = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let failing = false;
  let marked = false;
  /** When the feed last made progress: read through, or a change applied (monotonic ms). */
  let readAt = 0;

  const dispatch = async (topic: string, key: string, payload: string | undefined) => {
    for (const l of listeners.get(topic) ?? []) {
      try {
        await l(key, payload);
      } catch (err) {
        logger.error({ err, topic, key }, 'change feed: applying a change failed');
      }
    }
  };

  const take = async (r: ChangeRow) => {
    if (r.seq <= low || seen.has(r.seq)) return;
    seen.add(r.seq);
    missing.delete(r.seq);
    if (r.seq - high <= PAGE) {
      for (let s = high + 1; s < r.seq; s++) missing.set(s, performance.now());
    } else {
      // A hole wider than a page is no transaction in flight (the sequence was moved by hand):
      // passed at once, with whatever of it was still missed.
      logger.warn({ from: high, to: r.seq }, 'change feed: sequences jumped; passing the hole');
      low = r.seq - 1;
      for (const s of seen) if (s <= low) seen.delete(s);
      missing.clear();
    }
    high = Math.max(high, r.seq);
    if (r.origin !== nodeId) await dispatch(r.topic, r.key, r.payload);
    // Progress, for readiness: a long batch of changes being applied is not "behind".
    readAt = performance.now();
  };

  /** Moves `low` over what is seen, and over a sequence missed for GAP_WAIT_MS (rolled back, or a counter's hole). */
  const advance = () => {
    const now = performance.now();
    for (;;) {
      const next = low + 1;
      if (seen.delete(next)) low = next;
      else if (missing.has(next) && now - missing.get(next)! >= GAP_WAIT_MS) {
        // Rolled back, or committed later than any transaction should: a change then missed.
        logger.warn({ seq: next }, 'change feed: a sequence missing for 10 s is passed');
        missing.delete(next);
        low = next;
      } else break;
    }
  };

  async function poll(): Promise<void> {
    try {
      // The sequences still missed, asked for by number (not by reading again all after `low`).
      if (missing.size > 0) for (const r of await store.pick([...missing.keys()].slice(0, PAGE))) await take(r);
      for (;;) {
        const rows = await store.after(high, PAGE);
        for (const r of rows) await take(r);
        if (rows.length < PAGE) break;
      }
      advance();
      readAt = performance.now();
      if (failing) logger.info('change feed: reading again');
      failing = false;
    } catch (err) {
      if (!failing) logger.warn({ err }, 'change feed: reading failed; retrying');
      failing = true;
    }
  }

  const schedule = () => {
    if (stopped || !shared) return;
    timer = setTimeout(() => {
      running = poll().finally(schedule);
    }, pollMs);
    timer.unref();
  };

  return {
    async publish(topic, key, payload) {
      if (!shared) return;
      try {
        await store.append(topic, key, nodeId, payload);
      } catch (err) {
        // The change itself is stored; the other nodes' copies catch up when they expire.
        logger.warn({ err, topic, key }, 'change feed: could not publish a change');
      }
    },
    subscribe(topic, listener) {
      let set = listeners.get(topic);
      if (!set) listeners.set(topic, (set = new Set()));
      set.add(listener);
    },
    async mark() {
      if (!shared) return;
      low = high = await store.last();
      marked = true;
    },
    async start() {
      if (!shared) return;
      if (!marked) low = high = await store.last();
      marked = true;
      readAt = performance.now();
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    purge: () => store.purge(clock() - 86_400_000),
    behindMs: () => (shared && marked && !stopped ? Math.max(0, performance.now() - readAt) : 0),
  };
}
