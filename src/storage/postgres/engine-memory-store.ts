// The engine's durable memory in PostgreSQL: one row per item. A batch of replacements is one
// transaction of two statements, whatever its size: one DELETE of every (kind, entity) the
// batch names and one INSERT of all their items, both fed by unnest'ed arrays.
import type { EngineMemoryEntry, EngineMemoryKind, EngineMemoryStore } from '../engine-memory-types.js';
import type { PgDb } from './pg-db.js';

interface Row {
  entity_id: string;
  key: string;
  at: number;
  data: string | null;
}

/** The batch's entries, the last one per (kind, entity) winning as if they were applied in order. */
function lastPerEntity(entries: readonly EngineMemoryEntry[]): EngineMemoryEntry[] {
  const byKey = new Map<string, EngineMemoryEntry>();
  for (const e of entries) {
    const k = `${e.kind}\u0000${e.entityId}`;
    byKey.delete(k);
    byKey.set(k, e);
  }
  return [...byKey.values()];
}

export function createPgEngineMemoryStore(db: PgDb): EngineMemoryStore {
  return {
    async load(kind: EngineMemoryKind): Promise<EngineMemoryEntry[]> {
      const out: EngineMemoryEntry[] = [];
      let last: EngineMemoryEntry | undefined;
      const rows = await db.rows<Row>('SELECT entity_id, key, at, data FROM engine_memory WHERE kind = $1 ORDER BY entity_id, key', [kind]);
      for (const r of rows) {
        if (last?.entityId !== r.entity_id) out.push((last = { kind, entityId: r.entity_id, items: [] }));
        last.items.push({ key: r.key, at: r.at, data: r.data });
      }
      return out;
    },

    async write(entries) {
      if (entries.length === 0) return;
      const batch = lastPerEntity(entries);
      const items = { kind: [] as string[], entity: [] as string[], key: [] as string[], at: [] as number[], data: [] as (string | null)[] };
      for (const e of batch) {
        for (const i of e.items) {
          items.kind.push(e.kind);
          items.entity.push(e.entityId);
          items.key.push(i.key);
          items.at.push(i.at);
          items.data.push(i.data);
        }
      }
      await db.tx(async (q) => {
        await q.query(`DELETE FROM engine_memory m USING unnest($1::text[], $2::text[]) AS u(kind, entity_id)
          WHERE m.kind = u.kind AND m.entity_id = u.entity_id`, [batch.map((e) => e.kind), batch.map((e) => e.entityId)]);
        if (items.key.length === 0) return;
        // ON CONFLICT: a row another writer inserted after our DELETE's snapshot is replaced, not
        // a failed batch (the engine's leader writes alone, but a hand-over may overlap).
        await q.query(`INSERT INTO engine_memory (kind, entity_id, key, at, data)
          SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[])
          ON CONFLICT (kind, entity_id, key) DO UPDATE SET at = EXCLUDED.at, data = EXCLUDED.data`,
          [items.kind, items.entity, items.key, items.at, items.data]);
      });
    },

    async forgetEntities(ids) {
      if (ids.length === 0) return;
      await db.query('DELETE FROM engine_memory WHERE entity_id = ANY($1::text[])', [ids]);
    },
  };
}
