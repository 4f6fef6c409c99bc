// A table of records: a header row of column titles, one row per record, in a wrapper that
// scrolls sideways on a narrow screen. One component so tables read, scroll and announce
// themselves alike; a column says how its cells look.
import type { ReactNode } from 'react';

export interface Column<R> {
  /** Unique among the table's columns (React key). */
  key: string;
  header: ReactNode;
  cell: (row: R) => ReactNode;
  /** On the header and every cell (e.g. right-aligned numbers). */
  className?: string;
  /** For one cell only (a failed run in red, say); else `className`. */
  cellClassName?: (row: R) => string | undefined;
  /** A cell's tooltip. */
  cellTitle?: (row: R) => string;
  /** The cells name their row (<th scope="row">), for screen readers. */
  rowHeader?: boolean;
}

export function DataTable<R>({ label, columns, rows, rowKey, className, labelCells = false, explicitRoles = false, rowCells }: {
  /** The table's accessible name. */
  label: string;
  className?: string;
  /** Each cell carries its column's title (data-label), for a stylesheet that lays rows out as cards. */
  labelCells?: boolean;
  /**
   * ARIA roles written out on the table, its body, rows and cells: a stylesheet that turns rows
   * into cards (display: block) would otherwise take the table semantics away.
   */
  explicitRoles?: boolean;
  /** The cells of a row shown another way (a row being edited in place); undefined: the columns. */
  rowCells?: (row: R) => ReactNode | undefined;
  columns: readonly Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string;
}) {
  return (
    <div className="table-wrap">
      <table className={className} aria-label={label} role={explicitRoles ? 'table' : undefined}>
        <thead>
          <tr>
            {columns.map((c) => <th key={c.key} scope="col" className={c.className}>{c.header}</th>)}
          </tr>
        </thead>
        <tbody role={explicitRoles ? 'rowgroup' : undefined}>
          {rows.map((row) => (
            <tr key={rowKey(row)} role={explicitRoles ? 'row' : undefined}>
              {rowCells?.(row) ?? columns.map((c) => {
                const cellClass = c.cellClassName ? c.cellClassName(row) : c.className;
                const dataLabel = labelCells && typeof c.header === 'string' ? c.header : undefined;
                return c.rowHeader
                  ? <th key={c.key} scope="row" className={cellClass} title={c.cellTitle?.(row)} data-label={dataLabel}>{c.cell(row)}</th>
                  : <td key={c.key} role={explicitRoles ? 'cell' : undefined} className={cellClass} title={c.cellTitle?.(row)} data-label={dataLabel}>{c.cell(row)}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
