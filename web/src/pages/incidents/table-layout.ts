// A table's layout (sort, which columns show, their order) and its preset form, the base
// document's {sortData, visibleHeaderIds, columnOrder}. A preset saved by another client may
// name columns this table lacks or miss some it has: unknown ones are dropped, missing ones
// keep their defaults at the end, so loading never breaks the table.
import { COLUMNS, COLUMN_BY_ID, isSortable } from './columns';
import type { Scope } from './types';

export type Direction = 'asc' | 'desc';

export interface TableLayout {
  sort: { column: string; direction: Direction };
  visible: Record<string, boolean>;
  order: string[];
}

export interface LayoutData {
  sortData: { column: string; direction: Direction };
  visibleHeaderIds: Array<[string, boolean]>;
  columnOrder: string[];
}

export function defaultLayout(): TableLayout {
  return {
    sort: { column: 'timestamp', direction: 'desc' },
    visible: Object.fromEntries(COLUMNS.map((c) => [c.id, c.visible])),
    order: COLUMNS.map((c) => c.id),
  };
}

export function toPresetData(layout: TableLayout): LayoutData {
  return {
    sortData: { ...layout.sort },
    visibleHeaderIds: layout.order.map((id) => [id, layout.visible[id] ?? false]),
    columnOrder: [...layout.order],
  };
}

/** The layout a preset's data describes, made to fit this table's columns. */
export function fromPresetData(scope: Scope, raw: Record<string, unknown>): TableLayout {
  const base = defaultLayout();
  const d = raw as Partial<LayoutData>;
  const known = (id: unknown): id is string => typeof id === 'string' && COLUMN_BY_ID.has(id);
  const listed = Array.isArray(d.columnOrder) ? d.columnOrder.filter(known) : [];
  const order = [...new Set(listed), ...base.order.filter((id) => !listed.includes(id))];
  const visible = { ...base.visible };
  if (Array.isArray(d.visibleHeaderIds)) {
    for (const pair of d.visibleHeaderIds) if (Array.isArray(pair) && known(pair[0]) && typeof pair[1] === 'boolean') visible[pair[0]] = pair[1];
  }
  const s = d.sortData;
  const sort = s && known(s.column) && isSortable(scope, s.column) && (s.direction === 'asc' || s.direction === 'desc') ? { column: s.column, direction: s.direction } : base.sort;
  return { sort, visible, order };
}

/** Moves a column one place left (-1) or right (+1) in the order; at an end nothing moves. */
export function moveColumn(layout: TableLayout, id: string, by: -1 | 1): TableLayout {
  const order = [...layout.order];
  const at = order.indexOf(id);
  const to = at + by;
  if (at < 0 || to < 0 || to >= order.length) return layout;
  [order[at], order[to]] = [order[to]!, order[at]!];
  return { ...layout, order };
}

/** Clicking a header: the same column flips direction, another one starts descending. */
export function sortBy(layout: TableLayout, column: string): TableLayout {
  const direction: Direction = layout.sort.column === column && layout.sort.direction === 'desc' ? 'asc' : 'desc';
  return { ...layout, sort: { column, direction } };
}
