// The one intake path of measurements: the stat routes and MQTT hand it validated payloads;
// it applies the entities' stat rules (stat-rules-step.ts), journals the result durably,
// feeds history and the engine, and answers once all of that is done. Requests that arrive
// while a batch is being written wait and go together in the next one (group commit), so a
// journal write and an engine pass serve many requests.
import type { Logger } from 'pino';
import { flattenPayload } from '../core/metrics/flatten.js';
import type { SeriesRow } from '../storage/history-types.js';
import type { Catalog } from '../modules/catalog/catalog.js';
import type { HistoryService, Scalar } from '../modules/history/history-service.js';
import type { EventBus } from '../modules/live/event-bus.js';
import { mergePayload } from '../core/stat-rules/merge-payload.js';
import { createStatRulesStep } from './stat-rules-step.js';

export interface StatItem {
  entityId: string;
  entityType: 1 | 2;
  timestamp: number;
  payload: Record<string, unknown>;
  numbers: ReadonlyArray<[string, number]>;
  values: Record<string, Scalar>;
  /**
   * A stat rule's `extend`: `payload` (what came, what history and the journal take) is merged
   * into the last payload, and `stored` is that union, kept as the last payload.
   */
  extend?: boolean;
  stored?: Record<string, unknown>;
}

/** A journal entry: [entityId, timestamp, payload], and 1 when the payload extends the last one. */
type JournalEntry = [string, number, Record<string, unknown>, 1?];

/** The engine's side of intake: told which entities got which data, once it is stored. */
export interface DataListener {
  dataArrived(items: readonly StatItem[]): Promise<void>;
}

interface Waiting {
  items: StatItem[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

export function createStatIntake({ history, catalog, bus, engine, clock, logger, checkpointMs }: {
  history: HistoryService;
  catalog: Catalog;
  bus: EventBus;
  engine: DataListener;
  clock: () => number;
  logger: Logger;
  checkpointMs: number;
}) {
  let waiting: Waiting[] = [];
  let running: Promise<void> | undefined;
  let lastJournalId = 0;
  let checkpointing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const applyRules = createStatRulesStep({ catalog, history, clock, logger });

  async function write(items: StatItem[]): Promise<void> {
    // An entity deleted since its request was checked takes its data with it.
    // Stat rules run first: a dropped payload is not stored at all.
    const live = applyRules(items.filter((i) => catalog.entity(i.entityId) !== undefined));
    if (live.length === 0) return;
    const newSeries: SeriesRow[] = [];
    for (const i of live) history.newSeries(i.entityId, i.numbers, newSeries);
    const body = JSON.stringify(live.map((i): JournalEntry => (i.extend ? [i.entityId, i.timestamp, i.payload, 1] : [i.entityId, i.timestamp, i.payload])));
    try {
      lastJournalId = await history.store.appendJournal(body, newSeries);
    } catch (err) {
      history.dropSeries(newSeries);
      throw err;
    }
    for (const i of live) {
      // Deleted while the journal was written: its history is already gone; keep it so.
      if (!catalog.entity(i.entityId)) continue;
      history.record(i.entityId, i.timestamp, i.stored ?? i.payload, i.numbers, i.values, lastJournalId);
      bus.publish({ type: 'stat', entityId: i.entityId, entityType: i.entityType, timestamp: i.timestamp, metrics: Object.keys(i.values) });
    }
    try {
      await engine.dataArrived(live);
    } catch (err) {
      // The data is stored and acknowledged; a failed evaluation must not turn that into an error.
      logger.error({ err }, 'evaluating new data failed');
    }
  }

  /** Runs beside the writes (it yields between slices); one at a time. */
  function checkpoint(full = false): Promise<void> {
    checkpointing ??= history.checkpoint(lastJournalId, full).catch((err: unknown) => {
      logger.error({ err }, 'history checkpoint failed; data stays in the journal');
    }).finally(() => {
      checkpointing = undefined;
    });
    return checkpointing;
  }

  function drain(): Promise<void> {
    running ??= (async () => {
      // Let the requests of this turn of the event loop join the batch.
      await new Promise((r) => setImmediate(r));
      while (waiting.length > 0) {
        const batch = waiting;
        waiting = [];
        if (batch.length > 0) {
          try {
            await write(batch.flatMap((w) => w.items));
            for (const w of batch) w.resolve();
          } catch (err) {
            for (const w of batch) w.reject(err);
          }
        }
      }
    })().finally(() => {
      running = undefined;
      // A push that came after the loop's last look but before this line would wait for ever.
      if (waiting.length > 0) void drain();
    });
    return running;
  }

  return {
    /** Resolves once the items are journaled and evaluated. */
    push(items: StatItem[]): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ items, resolve, reject });
        void drain();
      });
    },

    /** Replays what the journal holds beyond the last checkpoint, then checkpoints. */
    async start(): Promise<void> {
      const replayed: Array<StatItem & { journalId: number }> = [];
      await history.store.readJournal((id, body) => {
        lastJournalId = id;
        for (const [entityId, timestamp, payload, extend] of JSON.parse(body) as JournalEntry[]) {
          const entity = catalog.entity(entityId);
          if (!entity) continue;
          const { numbers, values } = flattenPayload(payload);
          replayed.push({ entityId, entityType: entity.entityType, timestamp, payload, numbers, values, journalId: id, ...(extend ? { extend: true } : {}) });
        }
      });
      if (replayed.length > 0) {
        const newSeries: SeriesRow[] = [];
        for (const i of replayed) history.newSeries(i.entityId, i.numbers, newSeries);
        if (newSeries.length > 0) lastJournalId = await history.store.appendJournal('[]', newSeries);
        for (const i of replayed) {
          // In order, so an extending payload merges into what the one before it left.
          const payload = i.extend ? mergePayload(history.lastData(i.entityId)?.payload, i.payload) : i.payload;
          history.record(i.entityId, i.timestamp, payload, i.numbers, i.values, i.journalId);
        }
        logger.info({ payloads: replayed.length }, 'replayed the intake journal');
        await engine.dataArrived(replayed);
      }
      await checkpoint(true);
      timer = setInterval(() => void checkpoint(), checkpointMs).unref();
    },

    /** Finishes what is in flight and checkpoints, so a clean stop leaves an empty journal. */
    async stop(): Promise<void> {
      clearInterval(timer);
      while (running || checkpointing) await (running ?? checkpointing);
      await checkpoint(true);
    },
  };
}

export type StatIntake = ReturnType<typeof createStatIntake>;
