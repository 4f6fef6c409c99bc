// The one intake path of measurements. Its stages, in order, and where each one lives:
//   1. listener    HTTP POST .../stat (modules/history/routes.ts), MQTT (intake/mqtt/message-handler.ts),
//                  probes (modules/probes/probe-service.ts); SNMP traps are events (intake/event-intake.ts)
//   2. validation  access, body shape, timestamp, flattening into a StatItem (intake/stat-push.ts,
//                  intake/stat-validation.ts, API schemas intake/stat-schemas.ts; the item: core/pipeline/stat-item.ts)
//   3. stat rules  the entities' drop/change/extend rules (intake/stat-rules-step.ts)
//   4. journal     durable before the answer (modules/history/history-journal.ts)
//   5. history     heads and last values, checkpointed later (modules/history/history-service.ts)
//   6. engine      conditions and states (modules/engine/state-engine.ts, told via dataArrived)
//   7. incidents/triggers  the engine's IncidentSink (modules/incidents/service.ts); state
//                  triggers follow the bus's 'state' events (modules/triggers/service.ts)
//   8. live stream a 'stat' event per item here, 'state' events from the engine (modules/live/event-bus.ts)
// Requests that arrive while a batch is being written wait and go together in the next one
// (group commit), so a journal write and an engine pass serve many requests.
import type { Logger } from 'pino';
import { flattenPayload } from '../core/metrics/flatten.js';
import type { DataListener, StatItem } from '../core/pipeline/stat-item.js';
import type { Catalog } from '../modules/catalog/catalog.js';
import type { HistoryService } from '../modules/history/history-service.js';
import type { EventBus } from '../modules/live/event-bus.js';
import { mergePayload } from '../core/stat-rules/merge-payload.js';
import { createStatRulesStep } from './stat-rules-step.js';

export type { DataListener, StatItem } from '../core/pipeline/stat-item.js';

interface Waiting {
  items: StatItem[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

export function createStatIntake({ history, catalog, bus, engine, clock, logger, checkpointMs, onCheckpoint, dropsData }: {
  history: HistoryService;
  catalog: Catalog;
  bus: EventBus;
  engine: DataListener;
  clock: () => number;
  logger: Logger;
  checkpointMs: number;
  /** Told how long each checkpoint took (self-metrics). */
  onCheckpoint?: (ms: number, full: boolean) => void;
  /** True while the entity's measurements are not collected (a maintenance window with collectData false). */
  dropsData?: (entityId: string, now: number) => boolean;
}) {
  let waiting: Waiting[] = [];
  /** Payloads since start, for self-metrics (GET /metrics). */
  const counts = { received: 0, stored: 0, dropped: 0, failed: 0, values: 0, inMaintenance: 0 };
  let queued = 0;
  let running: Promise<void> | undefined;
  let lastJournalId = 0;
  let checkpointing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const applyRules = createStatRulesStep({ catalog, history, clock, logger });

  async function write(items: StatItem[]): Promise<void> {
    // An entity deleted since its request was checked takes its data with it.
    // Stat rules run first: a dropped payload is not stored at all.
    const now = clock();
    const known = items.filter((i) => catalog.entity(i.entityId) !== undefined);
    // In a window that does not collect data: dropped before anything (journal, history, the
    // engine's states), and counted; the sender was answered as if stored, so it does not retry.
    const collected = dropsData ? known.filter((i) => !dropsData(i.entityId, now)) : known;
    if (collected.length < known.length) {
      counts.inMaintenance += known.length - collected.length;
      // The device is alive, only its data is not kept: its silence in the history is no NoData.
      const kept = new Set(collected);
      engine.dataDropped?.(known.filter((i) => !kept.has(i)).map((i) => i.entityId));
    }
    const live = applyRules(collected);
    counts.dropped += items.length - known.length + collected.length - live.length;
    if (live.length === 0) return;
    try {
      lastJournalId = await history.appendJournal(live);
    } catch (err) {
      counts.failed += live.length;
      throw err;
    }
    for (const i of live) {
      // Deleted while the journal was written: its history is already gone; keep it so.
      if (!catalog.entity(i.entityId)) {
        counts.dropped++;
        continue;
      }
      // One key list for the history's latest values and the live event (neither changes it).
      const metrics = Object.keys(i.values);
      history.record(i.entityId, i.timestamp, i.stored ?? i.payload, i.numbers, i.values, lastJournalId, metrics);
      counts.stored++;
      counts.values += metrics.length;
      bus.publish({ type: 'stat', entityId: i.entityId, entityType: i.entityType, timestamp: i.timestamp, metrics });
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
    const started = performance.now();
    checkpointing ??= history.checkpoint(lastJournalId, full).then(() => onCheckpoint?.(performance.now() - started, full), (err: unknown) => {
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
        queued = 0;
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
      counts.received += items.length;
      queued += items.length;
      return new Promise<void>((resolve, reject) => {
        waiting.push({ items, resolve, reject });
        void drain();
      });
    },

    /** Payloads received, stored, dropped (stat rules, deleted entity), in maintenance (not collected), failed; values stored; queued now. */
    counters: () => ({ ...counts, queued }),

    /** Replays what the journal holds beyond the last checkpoint, then checkpoints. */
    async start(): Promise<void> {
      const replayed: Array<StatItem & { journalId: number }> = [];
      lastJournalId = await history.readJournal((id, entityId, timestamp, payload, extend) => {
        const entity = catalog.entity(entityId);
        if (!entity) return;
        const { numbers, values } = flattenPayload(payload);
        replayed.push({ entityId, entityType: entity.entityType, timestamp, payload, numbers, values, journalId: id, ...(extend ? { extend: true } : {}) });
      });
      if (replayed.length > 0) {
        lastJournalId = (await history.addReplayedSeries(replayed)) ?? lastJournalId;
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
