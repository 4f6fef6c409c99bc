// The group-commit loop on its own, with the stores and the engine replaced by recorders: what
// the HTTP tests cannot time precisely (a push that lands between the loop's last look and its end).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { Catalog } from '../modules/catalog/catalog.js';
import type { HistoryService } from '../modules/history/history-service.js';
import { EventBus } from '../modules/live/event-bus.js';
import { createStatIntake, type StatItem } from './stat-intake.js';

function setup() {
  let journalId = 0;
  const recorded: number[] = [];
  const history = {
    appendJournal: async () => ++journalId,
    readJournal: async () => 0,
    addReplayedSeries: async () => undefined,
    record: (_e: string, ts: number) => void recorded.push(ts),
    checkpoint: async () => {},
  } as unknown as HistoryService;
  const intake = createStatIntake({
    // setting: the stat rules step looks up each entity's rules (none here).
    history, catalog: { entity: () => ({}), setting: () => undefined } as unknown as Catalog, bus: new EventBus(), engine: { dataArrived: async () => {} },
    clock: Date.now, logger: pino({ level: 'silent' }), checkpointMs: 1e9,
  });
  const item = (ts: number): StatItem => ({ entityId: '1', entityType: 1, timestamp: ts, payload: {}, numbers: [], values: {} });
  return { intake, item, recorded };
}

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms))]);

describe('stat intake', () => {
  it('a push made right after another one is answered is written too (no push is left waiting)', async () => {
    const { intake, item, recorded } = setup();
    await intake.push([item(1)]);
    // Resumes before the first batch's loop has finished winding down.
    await within(intake.push([item(2)]), 1000);
    assert.deepEqual(recorded, [1, 2]);
  });

  it('pushes of one turn of the event loop go in one batch, in order', async () => {
    const { intake, item, recorded } = setup();
    await within(Promise.all([intake.push([item(1)]), intake.push([item(2), item(3)]), intake.push([item(4)])]), 1000);
    assert.deepEqual(recorded, [1, 2, 3, 4]);
  });
});
