// The group-commit loop on its own, with the stores and the engine replaced by recorders: what
// the HTTP tests cannot time precisely (a push that lands between the loop's last look and its end).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { Catalog } from '../modules/catalog/catalog.js';
import type { HistoryService } from '../modules/history/history-service.js';
import { EventBus } from '../modules/live/event-bus.js';
import { createStatIntake, type StatItem } from './stat-intake.js';

function setup(dropsData?: (id: string, now: number) => boolean) {
  let journalId = 0;
  const recorded: number[] = [];
  const arrived: string[] = [];
  const dropped: string[] = [];
  const history = {
    appendJournal: async () => ++journalId,
    readJournal: async () => 0,
    addReplayedSeries: async () => undefined,
    record: (_e: string, ts: number) => void recorded.push(ts),
    checkpoint: async () => {},
  } as unknown as HistoryService;
  const intake = createStatIntake({
    // setting: the stat rules step looks up each entity's rules (none here).
    history, catalog: { entity: () => ({}), setting: () => undefined } as unknown as Catalog, bus: new EventBus(),
    engine: { dataArrived: async (items) => void arrived.push(...items.map((i) => i.entityId)), dataDropped: (ids) => void dropped.push(...ids) },
    clock: Date.now, logger: pino({ level: 'silent' }), checkpointMs: 1e9, dropsData,
  });
  const item = (ts: number, entityId = '1'): StatItem => ({ entityId, entityType: 1, timestamp: ts, payload: {}, numbers: [], values: {} });
  return { intake, item, recorded, arrived, dropped };
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

  it('payloads of an entity whose window does not collect are not stored nor evaluated, but tell the engine the entity is alive (no NoData)', async () => {
    const { intake, item, recorded, arrived, dropped } = setup((id) => id === '2');
    await intake.push([item(1, '1'), item(2, '2'), item(3, '2')]);
    assert.deepEqual(recorded, [1]);
    assert.deepEqual(arrived, ['1']);
    assert.deepEqual(dropped, ['2', '2']);
  });
});
