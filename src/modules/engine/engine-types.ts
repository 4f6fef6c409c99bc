// The engine's memory of each entity and what it needs of its neighbours.
import type { MemEntity } from '../catalog/catalog.js';
import type { IncidentSignal } from '../incidents/incident-signal.js';
import type { StateReason } from '../live/event-bus.js';

export interface Own {
  auto: number;
  manual: number | null;
  /** Why `auto` is what it is (kept for the history of the next manual clearing). */
  autoReason: StateReason;
  durations: Map<string, number>;
  /** Keys of incident conditions currently raised. */
  raised: Set<string>;
  /** No data came for too long: conditions are not tested on the stale values until new data comes. */
  expired: boolean;
}

/** What the engine needs of the incidents service. */
export interface IncidentSink {
  signals(list: IncidentSignal[]): Promise<void>;
  raisedKeys(): Promise<Array<{ entityId: string; key: string }>>;
}

export interface OwnChange {
  entity: MemEntity;
  from: number;
  to: number;
  reason: StateReason;
}

export interface EngineSettings {
  noDataAfterMs: number;
  stateLevels: Readonly<Record<string, string>>;
}

/** The engine's writes to the catalog carry this origin; the engine does not hear them back. */
export const ENGINE_ORIGIN = 'engine';
