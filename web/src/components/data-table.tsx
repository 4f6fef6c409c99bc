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
  /** The cells name their row (<th scope="row">), for screen readers. */
  rowHeader?: boolean;
}

export function DataTable<R>({ label, columns, rows, rowKey }: {
  /** The table's accessible name. */
  label: string;
  columns: readonly Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string;
}) {
  return (
    <div className="table-wrap">
      <table aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => <th key={c.key} scope="col" className={c.className}>{c.header}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => {
                const className = c.cellClassName ? c.cellClassName(row) : c.className;
                return c.rowHeader
                  ? <th key={c.key} scope="row" className={className}>{c.cell(row)}</th>
                  : <td key={c.key} className={className}>{c.cell(row)}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
