// The preset keys the web UI uses, and the shape of `data` each one requires. Presets of any
// other key hold any JSON object: a client may keep its own kinds of presets here.
import { refuseUnknownFields } from '../../core/input/known-fields.js';
import { badRequest } from '../../errors.js';

/** Preset keys with a known meaning: key → what it is for. */
export const BUILT_IN_PRESET_KEYS = {
  'incident-page-preset-picker': 'the active incidents table; data is a table layout (validated)',
  'incident-history-page-preset-picker': 'the incident history table; data is a table layout (validated)',
  'event-log-page-preset-picker': 'the event log page; data is any object',
} as const;

export type BuiltInPresetKey = keyof typeof BUILT_IN_PRESET_KEYS;

/** The keys whose data must be a table layout. */
const TABLE_KEYS: ReadonlySet<string> = new Set(['incident-page-preset-picker', 'incident-history-page-preset-picker']);

/** Bounds of a table layout: column ids and how many a table may have. */
const MAX_COLUMN_ID = 256;
const MAX_COLUMNS = 1000;

export const TABLE_LAYOUT_DESCRIPTION = '{"sortData": {"column": String, "direction": "asc" | "desc"}, '
  + '"visibleHeaderIds": [[String column id, Boolean], ...], "columnOrder": [String column id, ...]}; no other fields';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function onlyFields(value: Record<string, unknown>, known: readonly string[], where: string): void {
  for (const k of known) if (!(k in value)) throw badRequest(`${where}.${k}: required`);
  refuseUnknownFields(value, known, where);
}

function columnId(v: unknown, where: string): void {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_COLUMN_ID) throw badRequest(`${where}: expected a column id (a string of 1 to ${MAX_COLUMN_ID} characters)`);
}

function list(v: unknown, where: string): unknown[] {
  if (!Array.isArray(v)) throw badRequest(`${where}: expected an array`);
  if (v.length > MAX_COLUMNS) throw badRequest(`${where}: at most ${MAX_COLUMNS} columns`);
  return v;
}

/** Throws 400 naming the field when `data` is not a table layout. */
export function checkTableLayout(data: Record<string, unknown>, where = 'data'): void {
  onlyFields(data, ['sortData', 'visibleHeaderIds', 'columnOrder'], where);
  const sort = data.sortData;
  if (!isObject(sort)) throw badRequest(`${where}.sortData: expected an object {column, direction}`);
  onlyFields(sort, ['column', 'direction'], `${where}.sortData`);
  columnId(sort.column, `${where}.sortData.column`);
  if (sort.direction !== 'asc' && sort.direction !== 'desc') throw badRequest(`${where}.sortData.direction: expected "asc" or "desc"`);
  list(data.visibleHeaderIds, `${where}.visibleHeaderIds`).forEach((pair, i) => {
    const at = `${where}.visibleHeaderIds.${i}`;
    if (!Array.isArray(pair) || pair.length !== 2) throw badRequest(`${at}: expected a pair [column id, visible]`);
    columnId(pair[0], `${at}.0`);
    if (typeof pair[1] !== 'boolean') throw badRequest(`${at}.1: expected a boolean`);
  });
  list(data.columnOrder, `${where}.columnOrder`).forEach((c, i) => columnId(c, `${where}.columnOrder.${i}`));
}

/** Checks `data` against what its key requires (nothing beyond an object for other keys). */
export function checkPresetData(key: string, data: Record<string, unknown>): void {
  if (TABLE_KEYS.has(key)) checkTableLayout(data);
}
