import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SEE_ALL } from '../../core/visibility.js';
import type { StatItem } from '../../core/pipeline/stat-item.js';
import type { Catalog } from '../catalog/catalog.js';
import type { EntityActor } from '../catalog/access.js';
import { createIngestService } from './ingest-service.js';

const NOW = 1_700_000_000_000;
const entities: Record<string, { id: string; entityType: 1 }> = { '5': { id: '5', entityType: 1 } };
const catalog = { entity: (id: string) => entities[id], discovered: (d: string) => (d === 'mac:1' ? '5' : undefined) } as unknown as Catalog;
const settings = { entityLabel: 'entity', entityTag: 'entity', maxDecompressedBytes: 1 << 20, maxSamples: 10_000 };

function service() {
  const pushed: StatItem[][] = [];
  const svc = createIngestService({ catalog, intake: { push: async (items) => void pushed.push(items) }, clock: () => NOW, maxFutureMs: 1000, settings });
  return { svc, pushed };
}
const actor = (rights: string[]): EntityActor => ({ userId: '1', rights: new Set(rights) as EntityActor['rights'], visibility: SEE_ALL });

test('one payload per entity and timestamp, oldest first, in one intake push; a discovery_id names the same object', async () => {
  const { svc, pushed } = service();
  const result = await svc.store(actor(['push-data']), [
    { entity: '5', metric: 'b', timestamp: NOW - 10, value: 2 },
    { entity: 'mac:1', metric: 'a', timestamp: NOW - 20, value: 1 },
    { entity: '5', metric: 'c', timestamp: NOW - 10, value: 3 },
    { entity: '5', metric: 'c', timestamp: NOW - 10, value: 4 },
  ]);
  assert.deepEqual(result, { stored: 4, skipped: { unknownEntity: 0, denied: 0, badTimestamp: 0 } });
  assert.equal(pushed.length, 1);
  assert.deepEqual(pushed[0]!.map((i) => [i.entityId, i.timestamp, i.payload]), [['5', NOW - 20, { a: 1 }], ['5', NOW - 10, { b: 2, c: 4 }]]);
});

test('more than 1000 metrics at one time go in several payloads, as /stat takes at most 1000', async () => {
  const { svc, pushed } = service();
  const points = Array.from({ length: 2500 }, (_, i) => ({ entity: '5', metric: `m${i}`, timestamp: NOW, value: i }));
  await svc.store(actor(['push-data']), points);
  assert.deepEqual(pushed[0]!.map((i) => i.numbers.length), [1000, 1000, 500]);
});

test('unknown entities, missing push rights and future timestamps are skipped and reported; nothing pushed when nothing is left', async () => {
  const { svc, pushed } = service();
  const heard: Array<[number, string]> = [];
  const points = [
    { entity: '404', metric: 'x', timestamp: NOW, value: 1 },
    { entity: '5', metric: 'x', timestamp: NOW + 5000, value: 1 },
  ];
  const result = await svc.store(actor(['push-data']), points, (i, r) => heard.push([i, r]));
  assert.deepEqual(result.skipped, { unknownEntity: 1, denied: 0, badTimestamp: 1 });
  assert.deepEqual(heard, [[0, 'unknownEntity'], [1, 'badTimestamp']]);
  const denied = await svc.store(actor([]), [{ entity: '5', metric: 'x', timestamp: NOW, value: 1 }]);
  assert.equal(denied.skipped.denied, 1);
  assert.equal(pushed.length, 0);
});
