// Facts about entities that full records show but the catalog rows do not hold: when an
// entity's shown state last changed (`last_state_update`) and the names of the metrics it has
// history for (`metrics_cache`). They are kept beside the catalog, one set per catalog, so the
// record views (entities/views.ts) reach them through the catalog they already get.
//
// State times follow every stored state change (the `setStates` writes the engine stores
// through the catalog), and are loaded at start from the stored state history (its latest row
// per entity), so they need no column of their own. Metric names belong to the history module,
// which is built after the catalog: it hands its lookup over once it exists.
import type { CatalogStore } from '../../storage/catalog-types.js';
import type { Catalog } from './catalog.js';

const NONE: readonly string[] = Object.freeze([]);

/** A running maintenance window as entity records name it. */
export interface EntityMaintenanceFact {
  id: string;
  name: string;
  until: number;
  collectData: boolean;
}

export class EntityFacts {
  private readonly stateTimes = new Map<string, number>();
  private metricSource: (id: string) => readonly string[] = () => NONE;
  private maintenanceSource: (id: string) => EntityMaintenanceFact | undefined = () => undefined;

  constructor(catalog: Catalog) {
    catalog.onChange((writes) => {
      for (const w of writes) if (w.op === 'setStates') for (const c of w.changes) this.noteStateChange(c.entityId, c.timestamp);
    });
    catalog.onDeleted((ids) => {
      for (const id of ids) this.stateTimes.delete(id);
    });
  }

  /** The ms of the entity's latest shown-state change; undefined if it never changed. */
  lastStateUpdate(id: string): number | undefined {
    return this.stateTimes.get(id);
  }

  /** The metric names the entity has history for, sorted. */
  metricNames(id: string): readonly string[] {
    return this.metricSource(id);
  }

  /** Where metric names come from (the history service, built after the catalog). */
  useMetricNames(source: (id: string) => readonly string[]): void {
    this.metricSource = source;
  }

  /** The maintenance window the entity is in now, if any. */
  maintenance(id: string): EntityMaintenanceFact | undefined {
    return this.maintenanceSource(id);
  }

  /** Where maintenance comes from (the maintenance service, built after the catalog). */
  useMaintenance(source: (id: string) => EntityMaintenanceFact | undefined): void {
    this.maintenanceSource = source;
  }

  /** A state change stored at `at` (the later of two wins: a load may race a change). */
  noteStateChange(id: string, at: number): void {
    const known = this.stateTimes.get(id);
    if (known === undefined || known < at) this.stateTimes.set(id, at);
  }
}

const registry = new WeakMap<Catalog, EntityFacts>();

/** The facts kept for this catalog (made on first use). */
export function entityFacts(catalog: Catalog): EntityFacts {
  let facts = registry.get(catalog);
  if (!facts) registry.set(catalog, (facts = new EntityFacts(catalog)));
  return facts;
}

/** Loads the latest state change of every entity from the store (at start, after the catalog). */
export async function loadEntityFacts(catalog: Catalog, store: CatalogStore): Promise<void> {
  const facts = entityFacts(catalog);
  for (const r of await store.lastStateChanges()) facts.noteStateChange(r.entityId, r.timestamp);
}
