// The engine's memory that must outlive the process: when each `_duration` body began to hold,
// when an entity is due to be evaluated again, and which state triggers wait out a `duration`
// (with what they fire). Kept so that a restart (and later a failover to another node)
// continues them instead of starting over.
//
// The unit of writing is one entity's memory of one kind, replaced whole: the engine keeps a
// few entries per entity and rewrites them when they change, so the store needs no partial
// updates, and a networked database can take a batch as one multi-row statement.

/** `duration`: key is the condition node's path, `at` its start. `recheck`: key '', `at` the
 *  moment to evaluate again. `trigger`: key is the trigger's index, `at` when it falls due,
 *  `data` what it fires with (JSON). `held`: a state trigger's fire held while its entity is in
 *  a maintenance window; key is the trigger's index, `at` the state change's time, `data` as
 *  for `trigger`.
 *  `notification`: key is `<incident id>/<policy id>`, `at` the next
 *  repeat or escalation, `data` the follow-up (modules/notifications/follow-ups.ts). */
export type EngineMemoryKind = 'duration' | 'recheck' | 'trigger' | 'held' | 'notification';

export interface EngineMemoryItem {
  key: string;
  at: number;
  data: string | null;
}

/** One entity's memory of one kind; an empty `items` forgets it. */
export interface EngineMemoryEntry {
  kind: EngineMemoryKind;
  entityId: string;
  items: EngineMemoryItem[];
}

export interface EngineMemoryStore {
  /** Every entity's memory of `kind`, in no particular order. */
  load(kind: EngineMemoryKind): Promise<EngineMemoryEntry[]>;
  /** Replaces each entry's memory (all of them, or none, land). */
  write(entries: readonly EngineMemoryEntry[]): Promise<void>;
  /** Forgets every kind of memory of the entities (they were deleted). */
  forgetEntities(entityIds: readonly string[]): Promise<void>;
}
