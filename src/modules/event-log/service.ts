// The event log: every SNMP trap and MQTT message received. Records are queued and written
// in batches (one transaction for whatever arrived meanwhile), so a burst of traps costs a
// few transactions, not one each. Beyond `queueLimit` waiting records, new ones are shed:
// counted and logged, never dropped silently. Retention by age and by count.
import type { Logger } from 'pino';
import { scanPage } from '../../core/scan-page.js';
import { compileFilterParam } from '../../core/input/filter-param.js';
import type { IncomingEvent } from '../../core/pipeline/incoming-event.js';
import type { EventLogStore, EventSortKey, EventTypeCode, NewEventRecord, StoredEventRecord } from '../../storage/event-log-types.js';
import { type EntityActor, canSee } from '../catalog/access.js';
import type { Catalog } from '../catalog/catalog.js';
import { storeNarrowing } from './store-narrowing.js';

export const EVENT_TYPES = { 'snmp-trap': 1, 'mqtt-message': 2 } as const;
const TYPE_NAMES: Record<EventTypeCode, string> = { 1: 'snmp-trap', 2: 'mqtt-message' };

export interface EventRecordView {
  _id: string;
  type: string;
  agentId: string;
  timestamp: number;
  payload: Record<string, unknown>;
  entity?: { entityId: string; entityType: 1 | 2; entityName: string };
}

/** `sortField` values the API takes, and the store's key for each. */
export const SORT_FIELDS: Record<string, EventSortKey> = { timestamp: 'timestamp', _id: 'id', type: 'type', agentId: 'agentId' };

export interface EventLogQueryInput {
  from?: number;
  to?: number;
  type?: EventTypeCode;
  filter?: string;
  sortField: EventSortKey;
  descending: boolean;
  inverse: boolean;
  limit: number;
  skip: number;
}

const BATCH_MAX = 5000;
/**
 * Commits at most this often while records keep coming: each commit writes the touched pages
 * of the table and its indexes, so a commit per datagram would cost more than the rows. A
 * record that arrives after a quiet spell is written at once, and so is one a client waits for
 * (an MQTT QoS 1 message's PUBACK): a publisher with its window of unacknowledged messages full
 * sends nothing more until they are stored, so waiting for more would only stall it (one
 * mqtt.js publisher got 13,800 messages/s into the log, against mosquitto's 82,000 routed).
 * Records that come while a batch is being written still form the next batch.
 */
const MIN_COMMIT_INTERVAL_MS = 25;
/**
 * Records a client waits for that start a batch at once, without waiting for the end of the
 * current turn of the event loop: the writer stores them while the main thread takes the rest.
 */
const EAGER_ROWS = 128;
/** Rows read per batch of a filtered scan: records may be large (a 64 KiB MQTT message). */
const SCAN_BATCH = 500;
/** A filtered (or access-restricted) query reads at most this many records for one page. */
export const MAX_FILTER_SCAN = 1_000_000;
const TRIM_SLICE = 10_000;
const SHED_LOG_INTERVAL_MS = 10_000;

interface Pending {
  record: NewEventRecord;
  done?: (stored: boolean) => void;
  /** A client waits for this record to be stored (see MIN_COMMIT_INTERVAL_MS). */
  awaited?: boolean;
}

export interface AppendOptions {
  /** A client waits for the record to be stored before it sends more (MQTT QoS 1 and 2). */
  awaited?: boolean;
}

export function createEventLogService({ store, catalog, clock, logger, settings }: {
  store: EventLogStore;
  catalog: Catalog;
  clock: () => number;
  logger: Logger;
  settings: { retentionDays: number; maxRecords: number; queueLimit: number };
}) {
  let queue: Pending[] = [];
  let writing: Promise<void> | undefined;
  let lastCommit = -Infinity;
  const counters = { written: 0, shed: 0, failed: 0, trimmed: 0 };
  let lastShedLog = 0;
  /** Records queued and records done (written or failed) since start; both count in order. */
  let queuedSeq = 0;
  let doneSeq = 0;
  let flushWaiters: Array<{ target: number; resolve: () => void }> = [];

  async function writeBatch(batch: Pending[]): Promise<void> {
    let ok = true;
    try {
      await store.append(batch.map((p) => p.record));
      counters.written += batch.length;
    } catch (err) {
      ok = false;
      counters.failed += batch.length;
      logger.error({ err, count: batch.length }, 'event log write failed');
    }
    doneSeq += batch.length;
    for (const p of batch) {
      try {
        p.done?.(ok);
      } catch (err) {
        // A caller's callback failing must not keep the rest of the batch from hearing.
        logger.error({ err }, 'event log append callback failed');
      }
    }
    if (flushWaiters.length > 0) {
      const due = flushWaiters.filter((w) => w.target <= doneSeq);
      flushWaiters = flushWaiters.filter((w) => w.target > doneSeq);
      for (const w of due) w.resolve();
    }
    if (ok) {
      try {
        await trimToCount();
      } catch (err) {
        // The records are stored; the count limit is applied again after the next batch.
        logger.error({ err }, 'event log count trim failed');
      }
    }
  }

  /**
   * Keeps at most maxRecords, oldest (lowest id) first out, a slice at a time. The store
   * counts: ids have holes after an age purge (and gaps in a networked database's sequence),
   * and another node may append or trim at the same time.
   */
  async function trimToCount(): Promise<void> {
    counters.trimmed += await store.trimToCount(settings.maxRecords, TRIM_SLICE);
  }

  /** Records in the queue a client waits for; while there are any, the writer does not wait for more. */
  let awaitedQueued = 0;
  /** Ends the writer's wait for more records early (a record a client waits for came). */
  let wake: (() => void) | undefined;

  /** The batch being written, if any: one at a time, so records are stored in arrival order. */
  let current: Promise<void> | undefined;

  /** Writes what is queued (up to BATCH_MAX) now; the caller knows no batch is being written. */
  function startBatch(): Promise<void> {
    lastCommit = performance.now();
    const batch = queue.length <= BATCH_MAX ? queue : queue.slice(0, BATCH_MAX);
    queue = batch === queue ? [] : queue.slice(BATCH_MAX);
    for (const p of batch) if (p.awaited) awaitedQueued--;
    const written = writeBatch(batch).finally(() => {
      if (current === written) current = undefined;
    });
    current = written;
    return written;
  }

  function drain(): Promise<void> {
    writing ??= (async () => {
      while (queue.length > 0) {
        // A batch started early (see EAGER_ROWS) is written first.
        if (current) {
          await current;
          continue;
        }
        const wait = lastCommit + MIN_COMMIT_INTERVAL_MS - performance.now();
        // Records of this turn of the event loop (or of the next few ms under load) join the batch.
        if (wait > 0 && queue.length < BATCH_MAX && awaitedQueued === 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => ((wake = undefined), resolve()), wait);
            wake = () => ((wake = undefined), clearTimeout(timer), resolve());
          });
        } else await new Promise((r) => setImmediate(r));
        if (current || queue.length === 0) continue;
        await startBatch();
      }
    })().catch((err: unknown) => {
      // writeBatch handles its own failures; this is a last guard, never an unhandled rejection.
      logger.error({ err }, 'event log writer loop failed');
    }).finally(() => {
      writing = undefined;
      if (queue.length > 0) void drain();
    });
    return writing;
  }

  /**
   * Resolves once everything queued so far is written, or after `maxWaitMs` when given, whichever
   * comes first (never waits for what comes meanwhile: a steady stream of traps must not keep a
   * reader waiting).
   */
  async function flush(maxWaitMs?: number): Promise<void> {
    const target = queuedSeq;
    if (doneSeq >= target) return;
    await new Promise<void>((resolve) => {
      if (maxWaitMs === undefined) {
        flushWaiters.push({ target, resolve });
      } else {
        // Whichever comes first: the write (which stops the timer) or the time (which withdraws the waiter).
        const waiter = { target, resolve: () => (clearTimeout(timer), resolve()) };
        const timer = setTimeout(() => {
          flushWaiters = flushWaiters.filter((w) => w !== waiter);
          resolve();
        }, maxWaitMs);
        flushWaiters.push(waiter);
      }
      void drain();
    });
  }

  /** Queues the event; `done` is told true once it is stored, false if shed or the write failed. */
  function appendThen(event: IncomingEvent, options: AppendOptions, done: (stored: boolean) => void): void {
    if (queue.length >= settings.queueLimit) {
      counters.shed++;
      const now = clock();
      if (now - lastShedLog >= SHED_LOG_INTERVAL_MS) {
        lastShedLog = now;
        logger.warn({ shed: counters.shed, queueLimit: settings.queueLimit }, 'event log overloaded: shedding records');
      }
      done(false);
      return;
    }
    const e = event.entity;
    const record: NewEventRecord = {
      timestamp: event.timestamp,
      type: EVENT_TYPES[event.type],
      agentId: event.agentId,
      entity: e ? { entityId: e.id, entityType: e.entityType, entityName: e.name } : null,
      payload: event.payload,
    };
    queue.push({ record, done, awaited: options.awaited });
    queuedSeq++;
    if (options.awaited) {
      awaitedQueued++;
      // Enough records a client waits for are queued, and nothing is being written: the writer
      // starts on them now, while the rest of this burst is still being taken (an MQTT client's
      // packets of one read are taken in one go, and none is acknowledged before the last is stored).
      if (awaitedQueued >= EAGER_ROWS && current === undefined) {
        startBatch().catch((err: unknown) => logger.error({ err }, 'event log write failed'));
      } else wake?.();
    }
    void drain();
  }

  function view(r: StoredEventRecord): EventRecordView {
    const out: EventRecordView = { _id: r.id, type: TYPE_NAMES[r.type], agentId: r.agentId, timestamp: r.timestamp, payload: r.payload };
    if (r.entity) {
      // The current name where the entity still exists; the name it had otherwise.
      const e = catalog.entity(r.entity.entityId);
      out.entity = { ...r.entity, entityName: e?.name ?? r.entity.entityName };
    }
    return out;
  }

  /** A restricted user sees records of entities they can see, and no unattributed ones. */
  function visibleTo(actor: EntityActor, r: StoredEventRecord): boolean {
    if (actor.visibility.all) return true;
    if (!r.entity) return false;
    const e = catalog.entity(r.entity.entityId);
    return e !== undefined && canSee(actor, e);
  }

  return {
    /** Queues the event; resolves true once stored, false if shed or the write failed. */
    append(event: IncomingEvent, options: AppendOptions = {}): Promise<boolean> {
      return new Promise<boolean>((resolve) => appendThen(event, options, resolve));
    },

    /** append() with a callback: no promise per record (a trap storm queues tens of thousands a second). */
    appendThen,

    flush,

    counters: () => ({ ...counters, queued: queue.length }),

    /**
     * One page in the asked order. Without a filter and for a user who sees everything, a
     * page is one index range scan; otherwise records are read in keyset batches until the
     * page is full or MAX_FILTER_SCAN records were read.
     */
    async query(actor: EntityActor, input: EventLogQueryInput): Promise<EventRecordView[]> {
      const filter = compileFilterParam<EventRecordView>(input.filter);
      const narrow = filter && storeNarrowing(filter.conditions, input.sortField);
      if (input.limit === 0 || narrow?.entityIds?.length === 0) return [];
      const base = {
        from: input.from, to: input.to, type: input.type, conditions: narrow?.conditions, entityIds: narrow?.entityIds,
        sort: input.sortField, descending: input.descending,
      };
      let out: EventRecordView[] = [];
      if (!filter && actor.visibility.all) {
        out = (await store.find({ ...base, limit: input.limit, skip: input.skip })).map(view);
      } else {
        out = await scanPage<StoredEventRecord, EventRecordView>({
          fetch: (after, limit) => store.find({ ...base, limit, after }),
          keep: (rec) => {
            if (!visibleTo(actor, rec)) return undefined;
            const v = view(rec);
            return !filter || filter.matches(v) ? v : undefined;
          },
          skip: input.skip, limit: input.limit, batchSize: SCAN_BATCH, maxScan: MAX_FILTER_SCAN,
        });
      }
      return input.inverse ? out.reverse() : out;
    },

    /** The newest record of each entity that still exists, for the engine at start-up. */
    async latestPerEntity(): Promise<StoredEventRecord[]> {
      return (await store.latestPerEntity()).filter((r) => r.entity && catalog.entity(r.entity.entityId));
    },

    typeName: (code: EventTypeCode) => TYPE_NAMES[code],

    /** Drops records past their age (in slices, so appends go on meanwhile), then the oldest beyond the count. */
    async purge(): Promise<number> {
      await flush();
      const cutoff = clock() - settings.retentionDays * 86_400_000;
      let byAge = 0;
      for (;;) {
        const n = await store.deleteOlderThan(cutoff, TRIM_SLICE);
        byAge += n;
        if (n < TRIM_SLICE) break;
      }
      const before = counters.trimmed;
      for (let i = 0; i < 10_000; i++) {
        const at = counters.trimmed;
        await trimToCount();
        if (counters.trimmed === at) break;
      }
      return byAge + counters.trimmed - before;
    },
  };
}

export type EventLogService = ReturnType<typeof createEventLogService>;
