// Runs checks at their intervals, in the server and in remote agents alike.
// - Spread: a check's first run falls at a random point of its first interval, so a start or a
//   bulk change of many checks does not fire them all at once; later runs keep that phase.
// - Bounded: at most `concurrency` checks run at once (and `pingConcurrency` ping processes);
//   the rest wait in order. A run that would overlap the same check's previous one is skipped,
//   and a queued run older than its interval is dropped, so a backlog never snowballs.
// - A hanging target holds one slot until its check's timeout (run-check abandons it there), so
//   it delays nobody while slots remain.
// - Changes apply at once: a removed or changed check's running probe is aborted and its result
//   dropped.
import TinyQueue from 'tinyqueue';
import { metricName, type CheckDefinition } from '../core/probes/check-definition.js';
import { runCheck, type CheckRun } from './run-check.js';

export interface ScheduledCheck {
  /** Unique per check version: a changed definition comes with a new key. */
  key: string;
  entityId: string;
  check: CheckDefinition;
  /** Stable over the check's changes (entity and property): where it runs in a cluster, and its phase. */
  placeKey?: string;
}

export interface SchedulerOptions {
  concurrency: number;
  pingConcurrency: number;
  /** A run finished (not cancelled). */
  onResult(item: ScheduledCheck, run: CheckRun): void;
  /** false: skip this run (the entity is disabled); asked at each due time. */
  runnable?(entityId: string): boolean;
  /** Wall clock for results' timestamps. */
  now?: () => number;
  /** Clock of due times: monotonic, so a wall-clock step neither stalls nor bunches checks. */
  monotonic?: () => number;
  random?: () => number;
  /**
   * Ms from now to a new check's first run; later runs keep that phase. Default: a random
   * point of its first interval. (The server's runner aligns it to the wall clock by the
   * check's key, so a check moved to another node of a cluster keeps its rhythm.)
   */
  firstRunIn?: (item: ScheduledCheck) => number;
  run?: typeof runCheck;
}

interface Entry {
  item: ScheduledCheck;
  /** Tells this entry's heap nodes from those of an earlier entry of the same key. */
  seq: number;
  memory: Map<string, unknown>;
  nextAt: number;
  running?: AbortController;
  queuedAt?: number;
  removed: boolean;
}

export interface SchedulerCounters {
  checks: number;
  running: number;
  waiting: number;
  started: number;
  completed: number;
  failed: number;
  /** Due while the same check was still running or waiting. */
  skipped: number;
  /** Waited for a slot longer than the check's interval, dropped. */
  late: number;
  /** Due while the entity was disabled. */
  paused: number;
}

export function createScheduler(options: SchedulerOptions) {
  const now = options.now ?? Date.now;
  const clock = options.monotonic ?? (() => performance.now());
  const random = options.random ?? Math.random;
  const run = options.run ?? runCheck;
  const entries = new Map<string, Entry>();
  const byEntity = new Map<string, Set<string>>();
  // Heap nodes name their entry by key and seq only: a removed check's definition and memory
  // are not kept alive by nodes that wait for a due time up to a day away.
  type Node = { at: number; key: string; seq: number };
  const byAt = (a: Node, b: Node) => a.at - b.at;
  let due = new TinyQueue<Node>([], byAt);
  let seq = 0;
  /** Heap nodes of removed entries; the heap is rebuilt when they outnumber the live ones. */
  let staleNodes = 0;
  const waiting: Entry[] = [];
  const waitingPing: Entry[] = [];
  const inFlight = new Set<Promise<void>>();
  let running = 0;
  let pings = 0;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let stopped = false;
  const counters = { started: 0, completed: 0, failed: 0, skipped: 0, late: 0, paused: 0 };

  function arm(): void {
    const top = due.peek();
    if (stopped || !top || top.at >= timerAt) return;
    clearTimeout(timer);
    timerAt = top.at;
    timer = setTimeout(fire, Math.max(0, top.at - clock()));
    timer.unref?.();
  }

  function fire(): void {
    timerAt = Infinity;
    timer = undefined;
    const t = clock();
    while (due.length > 0 && due.peek()!.at <= t) {
      const node = due.pop()!;
      const entry = entries.get(node.key);
      if (!entry || entry.seq !== node.seq) {
        staleNodes = Math.max(0, staleNodes - 1);
        continue;
      }
      const interval = entry.item.check.intervalMs;
      entry.nextAt += interval;
      // Fell behind (a blocked event loop, a suspended machine): resume from now, same phase length.
      if (entry.nextAt <= t) entry.nextAt = t + interval;
      due.push({ at: entry.nextAt, key: node.key, seq: entry.seq });
      if (options.runnable && !options.runnable(entry.item.entityId)) counters.paused++;
      else if (entry.running || entry.queuedAt !== undefined) counters.skipped++;
      else {
        entry.queuedAt = t;
        (entry.item.check.type === 'ping' ? waitingPing : waiting).push(entry);
      }
    }
    pump();
    arm();
  }

  function take(queue: Entry[]): Entry | undefined {
    const t = clock();
    while (queue.length > 0) {
      const entry = queue.shift()!;
      const queuedAt = entry.queuedAt!;
      entry.queuedAt = undefined;
      if (entry.removed) continue;
      if (t - queuedAt > entry.item.check.intervalMs) {
        counters.late++;
        continue;
      }
      return entry;
    }
    return undefined;
  }

  function pump(): void {
    while (!stopped && running < options.concurrency) {
      let entry = pings < options.pingConcurrency ? take(waitingPing) : undefined;
      entry ??= take(waiting);
      if (!entry) return;
      start(entry);
    }
  }

  function start(entry: Entry): void {
    const controller = new AbortController();
    entry.running = controller;
    const isPing = entry.item.check.type === 'ping';
    running++;
    if (isPing) pings++;
    counters.started++;
    const p = run(entry.item.check, entry.memory, controller.signal, now)
      .then((result) => {
        if (result.cancelled || entry.removed) return;
        counters.completed++;
        if (result.values[metricName(entry.item.check, 'available')] !== 1) counters.failed++;
        options.onResult(entry.item, result);
      })
      .catch(() => undefined)
      .finally(() => {
        running--;
        if (isPing) pings--;
        entry.running = undefined;
        inFlight.delete(p);
        pump();
      });
    inFlight.add(p);
  }

  function remove(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entry.removed = true;
    entry.running?.abort();
    entry.memory.clear();
    entries.delete(key);
    if (++staleNodes > 1000 && staleNodes > entries.size) {
      due = new TinyQueue<Node>([...entries.entries()].map(([k, e]) => ({ at: e.nextAt, key: k, seq: e.seq })), byAt);
      staleNodes = 0;
    }
  }

  return {
    /** Replaces the checks of one entity (an empty list removes them). */
    set(entityId: string, items: readonly ScheduledCheck[]): void {
      const keys = new Set(items.map((i) => i.key));
      const had = byEntity.get(entityId) ?? new Set<string>();
      for (const key of had) if (!keys.has(key)) remove(key);
      const t = clock();
      for (const item of items) {
        if (entries.has(item.key)) continue;
        const entry: Entry = { item, seq: ++seq, memory: new Map(), nextAt: t + Math.max(0, options.firstRunIn?.(item) ?? Math.floor(random() * item.check.intervalMs)), removed: false };
        entries.set(item.key, entry);
        due.push({ at: entry.nextAt, key: item.key, seq: entry.seq });
      }
      if (keys.size > 0) byEntity.set(entityId, keys);
      else byEntity.delete(entityId);
      arm();
    },

    /** Keys of the checks scheduled for an entity. */
    keysOf(entityId: string): readonly string[] {
      return [...(byEntity.get(entityId) ?? [])];
    },

    counters(): SchedulerCounters {
      return { checks: entries.size, running, waiting: waiting.length + waitingPing.length, ...counters };
    },

    /** Aborts what runs and waits for it to settle; nothing runs after. */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      for (const entry of entries.values()) {
        entry.removed = true;
        entry.running?.abort();
      }
      entries.clear();
      byEntity.clear();
      await Promise.all([...inFlight]);
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
