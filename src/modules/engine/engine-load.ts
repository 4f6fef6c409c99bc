// The engine's start-up read: own states as stored, the condition incidents raised, the durable
// memory (duration starts, pending re-evaluations), the state propagation over the object tree,
// and a fresh NoData expiry for every entity with data (a restart is no device's fault).
// Nothing is evaluated here; the engine starts its tick and follows the catalog afterwards.
import type { StatePropagation } from '../../core/states/state-propagation.js';
import type { CatalogStore } from '../../storage/catalog-types.js';
import type { EngineMemoryStore } from '../../storage/engine-memory-types.js';
import type { Catalog } from '../catalog/catalog.js';
import type { HistoryService } from '../history/history-service.js';
import type { IncidentSink } from './engine-types.js';
import type { EngineMemory } from './engine-memory.js';
import { shownOwn } from './own-states.js';

export interface EngineLoadDeps {
  store: Pick<CatalogStore, 'entityStates'>;
  incidents: Pick<IncidentSink, 'raisedKeys'>;
  memoryStore: EngineMemoryStore | undefined;
  memory: EngineMemory;
  catalog: Pick<Catalog, 'entity' | 'allObjects' | 'allLinks'>;
  propagation: Pick<StatePropagation, 'load'>;
  history: Pick<HistoryService, 'lastData'>;
  clock: () => number;
}

export async function loadEngineState({ store, incidents, memoryStore, memory, catalog, propagation, history, clock }: EngineLoadDeps): Promise<void> {
  for (const row of await store.entityStates()) {
    const o = memory.ownOf(row.entity_id);
    o.auto = row.auto_state;
    o.manual = row.manual_state;
  }
  for (const { entityId, key } of await incidents.raisedKeys()) if (key.startsWith('condition:')) memory.ownOf(entityId).raised.add(key);
  // Durations continue where they were; re-evaluations that fell due meanwhile run at the first tick.
  await memory.load(memoryStore, (id) => catalog.entity(id) !== undefined);
  propagation.load([...catalog.allObjects()].map((o) => ({ id: o.id, own: shownOwn(memory.ownOf(o.id)), parents: o.parent_id })));
  const now = clock();
  for (const { id } of catalog.allObjects()) if (history.lastData(id)) memory.dataSeen.seen(id, now);
  for (const { id } of catalog.allLinks()) if (history.lastData(id)) memory.dataSeen.seen(id, now);
}
