// Writes the engine's durable memory (storage/engine-memory-types.ts) in batches: callers put
// an entity's memory of one kind as it now is, as often as it changes; a flush writes the
// latest of each in one store call. Writes run one at a time, in order, so a later batch never
// lands under an earlier one. Shared by the engine (duration starts, re-evaluations) and the
// state triggers (waits).
import { serialQueue } from '../../core/serial-queue.js';
import type { EngineMemoryEntry, EngineMemoryStore } from '../../storage/engine-memory-types.js';

export class MemoryWriter {
  private pending = new Map<string, EngineMemoryEntry>();
  private readonly serial;
  private soon: Promise<void> | undefined;

  /** Without a store (unit tests of other parts) nothing is written. */
  constructor(private readonly store: EngineMemoryStore | undefined, onError: (err: unknown) => void) {
    this.serial = serialQueue(onError);
  }

  /** The entity's memory of this kind is now `entry` (it replaces what was put before). */
  put(entry: EngineMemoryEntry): void {
    this.pending.set(`${entry.kind}\u0000${entry.entityId}`, entry);
  }

  /** Entries waiting for a flush. */
  get size(): number {
    return this.pending.size;
  }

  /** Writes what was put so far in one batch; resolves when it (and every earlier write) landed. */
  flush(): Promise<void> {
    if (this.pending.size === 0 || !this.store) return this.serial(async () => undefined);
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const store = this.store;
    return this.serial(() => store.write(batch));
  }

  /** A flush at the next turn of the event loop: the changes of one burst share a write. */
  flushSoon(): Promise<void> {
    this.soon ??= new Promise<void>((r) => setImmediate(r)).then(() => {
      this.soon = undefined;
      return this.flush();
    });
    return this.soon;
  }

  /** Forgets every kind of memory of deleted entities, pending entries included. */
  forget(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    const gone = new Set(ids);
    for (const [k, e] of this.pending) if (gone.has(e.entityId)) this.pending.delete(k);
    const store = this.store;
    return this.serial(async () => store?.forgetEntities(ids));
  }

  /** Writes what is pending and waits for every write (on stop). */
  async close(): Promise<void> {
    while (this.soon) await this.soon.catch(() => undefined);
    await this.flush().catch(() => undefined);
  }
}
