import type Database from 'better-sqlite3';
import type { NewPreset, PresetQuery, PresetRow, PresetsStore } from '../preset-types.js';
import type { WriteGate } from './write-gate.js';

interface Row {
  id: number;
  owner: number;
  name: string;
  key: string;
  data: string;
  shared: number;
  created: number;
  updated: number;
}

const fromRow = (r: Row): PresetRow => ({
  id: String(r.id),
  ownerId: String(r.owner),
  name: r.name,
  key: r.key,
  data: JSON.parse(r.data) as Record<string, unknown>,
  shared: r.shared === 1,
  created: r.created,
  updated: r.updated,
});

const COLUMNS = 'id, owner, name, key, data, shared, created, updated';

export function createSqlitePresetsStore(db: Database.Database, gate: WriteGate): PresetsStore {
  const count = db.prepare('SELECT COUNT(*) AS n FROM presets WHERE owner = ?');
  const insert = db.prepare(`INSERT INTO presets (owner, name, key, data, shared, created, updated)
    VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM presets WHERE id = ?`);
  const all = db.prepare(`SELECT ${COLUMNS} FROM presets WHERE owner = ? OR shared = 1 ORDER BY id LIMIT ? OFFSET ?`);
  const byKey = db.prepare(`SELECT ${COLUMNS} FROM presets WHERE key = ? AND (owner = ? OR shared = 1) ORDER BY id LIMIT ? OFFSET ?`);
  const change = db.prepare(`UPDATE presets SET name = ?, key = ?, data = ?, shared = ?, updated = ? WHERE id = ? RETURNING ${COLUMNS}`);
  const remove = db.prepare('DELETE FROM presets WHERE id = ?');

  return {
    // Count and insert in one synchronous step: two requests at once cannot both pass the limit.
    create: (row: NewPreset, maxPerOwner: number) =>
      gate.run(() => {
        const owner = Number(row.ownerId);
        if ((count.get(owner) as { n: number }).n >= maxPerOwner) return undefined;
        return fromRow(insert.get(owner, row.name, row.key, JSON.stringify(row.data), row.shared ? 1 : 0, row.created, row.updated) as Row);
      }),

    get: async (id: string) => {
      const r = byId.get(Number(id)) as Row | undefined;
      return r && fromRow(r);
    },

    find: async (q: PresetQuery) => {
      const viewer = Number(q.viewerId);
      const rows = q.key === undefined ? all.all(viewer, q.limit, q.skip) : byKey.all(q.key, viewer, q.limit, q.skip);
      return (rows as Row[]).map(fromRow);
    },

    update: (row: PresetRow) =>
      gate.run(() => {
        const r = change.get(row.name, row.key, JSON.stringify(row.data), row.shared ? 1 : 0, row.updated, Number(row.id)) as Row | undefined;
        return r && fromRow(r);
      }),

    delete: (id: string) => gate.run(() => remove.run(Number(id)).changes > 0),
  };
}
