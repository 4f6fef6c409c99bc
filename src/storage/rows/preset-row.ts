// A presets row as both dialects store it (same columns; data as JSON text, shared as 0/1), the
// select list, and the row → record mapping, kept once for SQLite and PostgreSQL. (The record
// type is the interface's PresetRow, hence PresetDbRow for the table's row.)
import type { PresetRow } from '../preset-types.js';

export interface PresetDbRow {
  id: number;
  owner: number;
  name: string;
  key: string;
  data: string;
  shared: number;
  created: number;
  updated: number;
}

export const toPresetRecord = (r: PresetDbRow): PresetRow => ({
  id: String(r.id),
  ownerId: String(r.owner),
  name: r.name,
  key: r.key,
  data: JSON.parse(r.data) as Record<string, unknown>,
  shared: r.shared === 1,
  created: r.created,
  updated: r.updated,
});

export const PRESET_COLUMNS = 'id, owner, name, key, data, shared, created, updated';
