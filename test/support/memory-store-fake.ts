// Test support: an engine memory store in a Map, recording each call, for unit tests of the
// engine's and the triggers' durable memory (the real stores are checked by the contract).
import type { EngineMemoryEntry, EngineMemoryKind, EngineMemoryStore } from '../../src/storage/engine-memory-types.js';

export class FakeMemoryStore implements EngineMemoryStore {
  readonly rows = new Map<string, EngineMemoryEntry>();
  readonly calls: Array<{ op: 'write'; entries: EngineMemoryEntry[] } | { op: 'forget'; ids: string[] }> = [];

  async load(kind: EngineMemoryKind): Promise<EngineMemoryEntry[]> {
    return [...this.rows.values()].filter((e) => e.kind === kind).map((e) => ({ ...e, items: e.items.map((i) => ({ ...i })) }));
  }

  async write(entries: readonly EngineMemoryEntry[]): Promise<void> {
    this.calls.push({ op: 'write', entries: [...entries] });
    for (const e of entries) {
      const k = `${e.kind}:${e.entityId}`;
      if (e.items.length === 0) this.rows.delete(k);
      else this.rows.set(k, { ...e, items: e.items.map((i) => ({ ...i })) });
    }
  }

  async forgetEntities(ids: readonly string[]): Promise<void> {
    this.calls.push({ op: 'forget', ids: [...ids] });
    for (const [k, e] of this.rows) if (ids.includes(e.entityId)) this.rows.delete(k);
  }

  /** The stored items of one entity and kind, as [key, at] pairs. */
  items(kind: EngineMemoryKind, entityId: string): Array<[string, number]> {
    return (this.rows.get(`${kind}:${entityId}`)?.items ?? []).map((i) => [i.key, i.at]);
  }
}
