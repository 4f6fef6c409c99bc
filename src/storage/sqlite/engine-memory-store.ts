// The engine's durable memory in SQLite: one row per item, a batch of replacements in one
// transaction (through the write gate, like every write on the shared connection).
import type Database from 'better-sqlite3';
import type { EngineMemoryEntry, EngineMemoryKind, EngineMemoryStore } from '../engine-memory-types.js';
import type { WriteGate } from './write-gate.js';

interface Row {
  entity_id: string;
  key: string;
  at: number;
  data: string | null;
}

export function createSqliteEngineMemoryStore(db: Database.Database, gate: WriteGate): EngineMemoryStore {
  const select = db.prepare('SELECT entity_id, key, at, data FROM engine_memory WHERE kind = ? ORDER BY entity_id, key');
  const clear = db.prepare('DELETE FROM engine_memory WHERE kind = ? AND entity_id = ?');
  const insert = db.prepare('INSERT INTO engine_memory (kind, entity_id, key, at, data) VALUES (?, ?, ?, ?, ?)');
  const forget = db.prepare('DELETE FROM engine_memory WHERE entity_id = ?');

  const writeAll = db.transaction((entries: readonly EngineMemoryEntry[]) => {
    for (const e of entries) {
      clear.run(e.kind, e.entityId);
      for (const i of e.items) insert.run(e.kind, e.entityId, i.key, i.at, i.data);
    }
  });
  const forgetAll = db.transaction((ids: readonly string[]) => {
    for (const id of ids) forget.run(id);
  });

  return {
    async load(kind: EngineMemoryKind): Promise<EngineMemoryEntry[]> {
      const out: EngineMemoryEntry[] = [];
      let last: EngineMemoryEntry | undefined;
      for (const r of select.all(kind) as Row[]) {
        if (last?.entityId !== r.entity_id) out.push((last = { kind, entityId: r.entity_id, items: [] }));
        last.items.push({ key: r.key, at: r.at, data: r.data });
      }
      return out;
    },
    write: (entries) => (entries.length === 0 ? Promise.resolve() : gate.run(() => writeAll(entries))),
    forgetEntities: (ids) => (ids.length === 0 ? Promise.resolve() : gate.run(() => forgetAll(ids))),
  };
}
