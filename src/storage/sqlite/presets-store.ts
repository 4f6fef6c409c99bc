import type Database from 'better-sqlite3';
import type { NewPreset, PresetQuery, PresetRow, PresetsStore } from '../preset-types.js';
import type { WriteGate } from './write-gate.js';
import { type PresetDbRow, toPresetRecord, PRESET_COLUMNS } from '../rows/preset-row.js';

export function createSqlitePresetsStore(db: Database.Database, gate: WriteGate): PresetsStore {
  const count = db.prepare('SELECT COUNT(*) AS n FROM presets WHERE owner = ?');
  const insert = db.prepare(`INSERT INTO presets (owner, name, key, data, shared, created, updated)
    VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${PRESET_COLUMNS}`);
  const byId = db.prepare(`SELECT ${PRESET_COLUMNS} FROM presets WHERE id = ?`);
  const all = db.prepare(`SELECT ${PRESET_COLUMNS} FROM presets WHERE owner = ? OR shared = 1 ORDER BY id LIMIT ? OFFSET ?`);
  const byKey = db.prepare(`SELECT ${PRESET_COLUMNS} FROM presets WHERE key = ? AND (owner = ? OR shared = 1) ORDER BY id LIMIT ? OFFSET ?`);
  const change = db.prepare(`UPDATE presets SET name = ?, key = ?, data = ?, shared = ?, updated = ? WHERE id = ? RETURNING ${PRESET_COLUMNS}`);
  const remove = db.prepare('DELETE FROM presets WHERE id = ?');

  return {
    // Count and insert in one synchronous step: two requests at once cannot both pass the limit.
    create: (row: NewPreset, maxPerOwner: number) =>
      gate.run(() => {
        const owner = Number(row.ownerId);
        if ((count.get(owner) as { n: number }).n >= maxPerOwner) return undefined;
        return toPresetRecord(insert.get(owner, row.name, row.key, JSON.stringify(row.data), row.shared ? 1 : 0, row.created, row.updated) as PresetDbRow);
      }),

    get: async (id: string) => {
      const r = byId.get(Number(id)) as PresetDbRow | undefined;
      return r && toPresetRecord(r);
    },

    find: async (q: PresetQuery) => {
      const viewer = Number(q.viewerId);
      const rows = q.key === undefined ? all.all(viewer, q.limit, q.skip) : byKey.all(q.key, viewer, q.limit, q.skip);
      return (rows as PresetDbRow[]).map(toPresetRecord);
    },

    update: (row: PresetRow) =>
      gate.run(() => {
        const r = change.get(row.name, row.key, JSON.stringify(row.data), row.shared ? 1 : 0, row.updated, Number(row.id)) as PresetDbRow | undefined;
        return r && toPresetRecord(r);
      }),

    delete: (id: string) => gate.run(() => remove.run(Number(id)).changes > 0),
  };
}
