// Keeps this node's in-memory copies current with what the other nodes change (SCALE-OUT.md:
// read models follow a change feed). A change is published after its write has committed; every
// node reads the feed from the last sequence it saw, a few times a second, and hands each
// change of another node to the topic's subscribers (which drop or re-read their copy).
//
// Sequences can commit out of order on PostgreSQL (two transactions take 7 and 8; 8 commits
// first). A reader that moved past 8 would never see 7, so it moves its position only over
// sequences it has seen. It waits for a missing one up to GAP_WAIT_MS (a rolled-back insert
// leaves a hole for ever) and then passes it.
import type { Logger } from 'pino';
import type { ChangeFeedStore } from '../../storage/change-feed-types.js';

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
}

export function createChangeFeed({ store, nodeId, pollMs, clock, logger }: {
  store: ChangeFeedStore;
  nodeId: string;
  pollMs: number;
  clock: () => number;
  logger: Logger;
}): ChangeFeed {
  const listeners = new Map<string, Set<ChangeListener>>();
  /** Every sequence up to `low` is seen (or given up); `seen` holds those above it. */
  let low = 0;
  const seen = new Set<number>();
  let gapSince: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let failing = false;
  let marked = false;

  const dispatch = async (topic: string, key: string, payload: string | undefined) => {
    for (const l of listeners.get(topic) ?? []) {
      try {
        await l(key, payload);
      } catch (err) {
        logger.error({ err, topic, key }, 'change feed: applying a change failed');
      }
    }
  };

  const advance = () => {
    while (seen.has(low + 1)) seen.delete(++low);
    if (seen.size === 0) {
      gapSince = undefined;
      return;
    }
    gapSince ??= clock();
    if (clock() - gapSince < GAP_WAIT_MS) return;
    // Waited long enough for the missing sequence: it was rolled back, or is a counter's hole.
    low = Math.min(...seen) - 1;
    gapSince = undefined;
    advance();
  };

  async function poll(): Promise<void> {
    try {
      for (;;) {
        const rows = await store.after(low, PAGE);
        let fresh = 0;
        for (const r of rows) {
          if (r.seq <= low || seen.has(r.seq)) continue;
          seen.add(r.seq);
          fresh++;
          if (r.origin !== nodeId) await dispatch(r.topic, r.key, r.payload);
        }
        advance();
        if (rows.length < PAGE || fresh === 0) break;
      }
      if (failing) logger.info('change feed: reading again');
      failing = false;
    } catch (err) {
      if (!failing) logger.warn({ err }, 'change feed: reading failed; retrying');
      failing = true;
    }
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = poll().finally(schedule);
    }, pollMs);
    timer.unref();
  };

  return {
    async publish(topic, key, payload) {
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
      low = await store.last();
      marked = true;
    },
    async start() {
      if (!marked) low = await store.last();
      marked = true;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    purge: () => store.purge(clock() - 86_400_000),
  };
}
