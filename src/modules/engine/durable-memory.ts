// The engine's memory that outlives a restart: each entity's `_duration` starts and its pending
// re-evaluation. Changes are noted as evaluation makes them (own-states.ts, recheck-times.ts)
// and written once per pass that made any, in one batch (memory-writer.ts): an entity whose
// condition keeps holding or failing writes nothing, so the hot path of steady data is free.
// At start-up the memory is read back before anything is evaluated; a re-evaluation that fell
// due while the server was down runs at the first tick, once.
import type { EngineMemoryStore } from '../../storage/engine-memory-types.js';
import type { MemoryWriter } from './memory-writer.js';
import type { OwnStates } from './own-states.js';
import type { RecheckTimes } from './recheck-times.js';

export class DurableMemory {
  private readonly durations = new Set<string>();
  private readonly rechecks = new Set<string>();

  constructor(private readonly writer: MemoryWriter) {}

  /** For OwnStates: the entity's duration starts changed. */
  readonly durationsChanged = (id: string): void => {
    this.durations.add(id);
  };

  /** For RecheckTimes: the entity's next evaluation changed. */
  readonly recheckChanged = (id: string): void => {
    this.rechecks.add(id);
  };

  /** Whether anything changed since the last save. */
  get changed(): boolean {
    return this.durations.size + this.rechecks.size > 0;
  }

  /** Writes the memory of every entity that changed, as it is now; resolves once stored. */
  save(owns: OwnStates, rechecks: RecheckTimes): Promise<void> {
    if (!this.changed) return Promise.resolve();
    for (const id of this.durations) {
      const d = owns.peek(id)?.durations;
      this.writer.put({ kind: 'duration', entityId: id, items: d ? [...d].map(([key, at]) => ({ key, at, data: null })) : [] });
    }
    for (const id of this.rechecks) {
      const at = rechecks.get(id);
      this.writer.put({ kind: 'recheck', entityId: id, items: at === undefined ? [] : [{ key: '', at, data: null }] });
    }
    this.durations.clear();
    this.rechecks.clear();
    return this.writer.flush();
  }

  /** Drops the memory of deleted entities. */
  forget(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      this.durations.delete(id);
      this.rechecks.delete(id);
    }
    return this.writer.forget(ids);
  }

  /**
   * Reads the stored memory into `owns` and `rechecks` (before the engine evaluates anything).
   * Memory of entities that no longer exist is dropped from the store.
   */
  async load(store: EngineMemoryStore | undefined, owns: OwnStates, rechecks: RecheckTimes, exists: (id: string) => boolean): Promise<void> {
    if (!store) return;
    const gone = new Set<string>();
    for (const e of await store.load('duration')) {
      if (!exists(e.entityId)) gone.add(e.entityId);
      else for (const i of e.items) owns.of(e.entityId).durations.set(i.key, i.at);
    }
    for (const e of await store.load('recheck')) {
      if (!exists(e.entityId)) gone.add(e.entityId);
      else if (e.items[0]) rechecks.set(e.entityId, e.items[0].at);
    }
    // What was read is what is stored: nothing to write back.
    this.durations.clear();
    this.rechecks.clear();
    if (gone.size > 0) await this.writer.forget([...gone]);
  }
}
