// View presets in PostgreSQL. The per-owner limit must hold when requests (and nodes) race:
// the count and the insert run in one transaction under a lock on the owner.
import type { NewPreset, PresetQuery, PresetRow, PresetsStore } from '../preset-types.js';
import type { PgDb } from './pg-db.js';
import { rowId } from './row-id.js';
import { type PresetDbRow, toPresetRecord, PRESET_COLUMNS } from '../rows/preset-row.js';

/** First key of the per-owner advisory lock (the second is the owner's hash): presets' own space. */
const PRESET_OWNER_LOCK = 7_411_050;

export function createPgPresetsStore(db: PgDb): PresetsStore {
  return {
    create: (row: NewPreset, maxPerOwner: number) =>
      db.tx(async (q) => {
        // READ COMMITTED gives each statement a fresh snapshot, so once the lock is held the
        // count sees every preset committed by whoever held it before. A lock on the owner
        // (not on a row: an owner with no preset has none) serializes only that owner's creates.
        await q.query('SELECT pg_advisory_xact_lock($1, hashint8($2::bigint))', [PRESET_OWNER_LOCK, row.ownerId]);
        const r = await q.one<PresetDbRow>(`INSERT INTO presets (owner, name, key, data, shared, created, updated)
          SELECT $1::bigint, $2::text, $3::text, $4::text, $5::integer, $6::bigint, $7::bigint
          WHERE (SELECT count(*) FROM presets WHERE owner = $1) < $8
          RETURNING ${PRESET_COLUMNS}`,
          [row.ownerId, row.name, row.key, JSON.stringify(row.data), row.shared ? 1 : 0, row.created, row.updated, maxPerOwner]);
        return r && toPresetRecord(r);
      }),

    async get(id: string) {
      const key = rowId(id);
      const r = key === undefined ? undefined : await db.one<PresetDbRow>(`SELECT ${PRESET_COLUMNS} FROM presets WHERE id = $1`, [key]);
      return r && toPresetRecord(r);
    },

    async find(q: PresetQuery) {
      // A viewer id that is not one owns nothing: the shared presets only (as SQLite answers).
      const viewer = rowId(q.viewerId) ?? 0;
      const rows = q.key === undefined
        ? await db.rows<PresetDbRow>(`SELECT ${PRESET_COLUMNS} FROM presets WHERE owner = $1 OR shared = 1 ORDER BY id LIMIT $2 OFFSET $3`,
          [viewer, q.limit, q.skip])
        : await db.rows<PresetDbRow>(`SELECT ${PRESET_COLUMNS} FROM presets WHERE key = $1 AND (owner = $2 OR shared = 1) ORDER BY id LIMIT $3 OFFSET $4`,
          [q.key, viewer, q.limit, q.skip]);
      return rows.map(toPresetRecord);
    },

    async update(row: PresetRow) {
      const key = rowId(row.id);
      const r = key === undefined ? undefined : await db.one<PresetDbRow>(`UPDATE presets SET name = $1, key = $2, data = $3, shared = $4, updated = $5
        WHERE id = $6 RETURNING ${PRESET_COLUMNS}`, [row.name, row.key, JSON.stringify(row.data), row.shared ? 1 : 0, row.updated, key]);
      return r && toPresetRecord(r);
    },

    async delete(id: string) {
      const key = rowId(id);
      return key !== undefined && (await db.query('DELETE FROM presets WHERE id = $1', [key])).rowCount! > 0;
    },
  };
}
