// The read side over the real SQLite store, for what an HTTP test cannot reach: ranges whose raw
// points have been purged (raw retention), where only hourly rollups are left.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { parseDownsample } from '../../core/history/time-spec.js';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite.js';
import type { Storage } from '../../storage/types.js';
import { createHistoryQuery } from './history-query.js';
import { createHistoryService } from './history-service.js';

/** The root object every storage is seeded with: series are stored only for entities that exist. */
const ROOT = '1';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RAW_RETENTION = 30 * DAY;

let dir: string;
let storage: Storage;
let now = Math.floor(Date.now() / HOUR) * HOUR;
const OLD = now - 40 * DAY; // raw points purged: only the hour's rollup is left
const NEW = now - DAY; // raw points kept
const old: Array<[number, number]> = [[OLD, 1], [OLD + 1000, 2], [OLD + 2000, 3], [OLD + 3000, 10]];
const recent: Array<[number, number]> = [[NEW, 4], [NEW + 1000, 8], [NEW + 2000, 6], [NEW + 3000, 2]];
let query: ReturnType<typeof createHistoryQuery>;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-hq-'));
  storage = openSqliteStorage(dir);
  const clock = () => now;
  const history = createHistoryService({ store: storage.history, clock, logger: pino({ level: 'silent' }) });
  await history.load();
  let journal = (await history.addReplayedSeries([{ entityId: ROOT, entityType: 1, timestamp: OLD, payload: {}, numbers: [['v', 0]], values: {} }]))!;
  // Each set sealed on its own (idle heads are sealed at a checkpoint), so purging drops the old chunk only.
  for (const set of [old, recent]) {
    for (const [ts, v] of set) history.record(ROOT, ts, { v }, [['v', v]], { v }, journal);
    now += 20 * 60_000;
    await history.checkpoint(journal, true);
    journal = (await storage.history.appendJournal('[]', [])).id;
  }
  await storage.history.purge(now - RAW_RETENTION, now - 730 * DAY);
  query = createHistoryQuery({ history, clock: () => now, rawRetentionMs: RAW_RETENTION });
});
after(async () => {
  await storage?.close();
  rmSync(dir, { recursive: true, force: true });
});

const dps = async (downsample: string) => (await query.history(ROOT, ['v'], OLD - HOUR, now, parseDownsample(downsample)))[0]!.dps;

describe('history query past raw retention', () => {
  it('the old raw points are gone: a raw answer has only the recent ones', async () => {
    assert.deepEqual((await query.history(ROOT, ['v'], OLD - HOUR, now))[0]!.dps, recent);
  });

  it('streaming aggregators reach back through the hourly rollups', async () => {
    assert.deepEqual(await dps('1h-avg'), [[OLD, 4], [NEW, 5]]);
    assert.deepEqual(await dps('1h-zimsum'), [[OLD, 16], [NEW, 20]]);
    assert.deepEqual(await dps('1h-mimmax'), [[OLD, 10], [NEW, 8]]);
    assert.deepEqual(await dps('1d-count'), [[OLD - (OLD % DAY), 4], [NEW - (NEW % DAY), 4]]);
  });

  it('dev, median and pNN need raw points: the purged hours have no bucket, the kept ones are exact', async () => {
    assert.deepEqual(await dps('1h-median'), [[NEW, 5]]);
    assert.deepEqual(await dps('1h-p99'), [[NEW, 8]]);
    assert.deepEqual(await dps('all-dev'), [[OLD - HOUR, Math.sqrt(5)]]);
  });
});
