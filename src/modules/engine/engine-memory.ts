// What the engine remembers per entity, in one place: own states and duration starts, pending
// re-evaluations, when data last came, the latest event, and the entities marked for the next
// pass; with the durable part (durable-memory.ts) and how all of it is forgotten at once when
// entities are deleted. The engine's other pieces read and change it; none owns a copy.
import type { EngineMemoryStore } from '../../storage/engine-memory-types.js';
import type { Own } from './engine-types.js';
import { DataSeen } from './data-seen.js';
import { DurableMemory } from './durable-memory.js';
import { LatestEvents } from './latest-events.js';
import type { MemoryWriter } from './memory-writer.js';
import { OwnStates } from './own-states.js';
import { RecheckTimes } from './recheck-times.js';

export class EngineMemory {
  readonly durable: DurableMemory;
  readonly owns: OwnStates;
  /** Entities to evaluate again at a time (a pending `_duration`). */
  readonly recheck: RecheckTimes;
  readonly dataSeen = new DataSeen();
  /** Each entity's latest event (trap, MQTT message) as conditions see it (`event.*`). */
  readonly latestEvents = new LatestEvents();
  /** Entities whose conditions changed: evaluate at the next pass. */
  readonly dirty = new Set<string>();

  constructor(writer: MemoryWriter) {
    this.durable = new DurableMemory(writer);
    this.owns = new OwnStates(this.durable.durationsChanged);
    this.recheck = new RecheckTimes(this.durable.recheckChanged);
  }

  /** The entity's own state, made on first use. */
  readonly ownOf = (id: string): Own => this.owns.of(id);

  /**
   * Marks an entity for the next pass. It is also due for re-evaluation now in the durable
   * memory (the caller saves it): a restart before that pass still evaluates it.
   */
  markDirty(id: string, now: number): void {
    this.dirty.add(id);
    this.recheck.set(id, Math.min(this.recheck.get(id) ?? Infinity, now));
  }

  /** Stores what changed in the durable memory since the last save; resolves once stored. */
  save(): Promise<void> {
    return this.durable.save(this.owns, this.recheck);
  }

  /** Whether the durable memory has changes not saved yet. */
  get changed(): boolean {
    return this.durable.changed;
  }

  /** Reads the durable memory back (before anything is evaluated). */
  load(store: EngineMemoryStore | undefined, exists: (id: string) => boolean): Promise<void> {
    return this.durable.load(store, this.owns, this.recheck, exists);
  }

  /** Forgets everything about deleted entities; resolves once their stored memory is gone. */
  forget(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      this.owns.forget(id);
      this.dataSeen.delete(id);
      this.recheck.forget(id);
      this.dirty.delete(id);
      this.latestEvents.delete(id);
    }
    return this.durable.forget(ids);
  }
}
