// A table of records: a header row of column titles, one row per record, in a wrapper that
// scrolls sideways on a narrow screen. One component so tables read, scroll and announce
// themselves alike; a column says how its header and cells look, the table how its rows do.
import type { CSSProperties, ReactNode } from 'react';

export interface Column<R> {
  /** Unique among the table's columns (React key). */
  key: string;
  header: ReactNode;
  /** A cell's content; absent when the table's `rowCells` draws every row (rows with state of their own). */
  cell?: (row: R) => ReactNode;
  /** On the header and every cell (e.g. right-aligned numbers). */
  className?: string;
  /** For the cells only (a failed run in red, say, or an actions cell); else `className`. */
  cellClassName?: (row: R) => string | undefined;
  /** A cell's tooltip. */
  cellTitle?: (row: R) => string;
  /** The cells name their row (<th scope="row">), for screen readers. */
  rowHeader?: boolean;
  /** With `labelCells`: these cells carry no title (a card shows an actions cell's buttons alone). */
  unlabelled?: boolean;
  /**
   * The column sorts the rows: its header is a button (named "Sort by <header>") that asks for
   * it, marked ▲/▼ and aria-sort while the rows are sorted by it (`direction`).
   */
  sort?: { direction: 'asc' | 'desc' | undefined; onSort: () => void };
}

/** What a row carries besides its cells: a class, a style (CSS variables), data- attributes. */
export type RowAttributes = { className?: string; style?: CSSProperties } & { [data: `data-${string}`]: string | number | undefined };

export function DataTable<R>({ label, columns, rows, rowKey, className, wrapClassName, labelCells = false, explicitRoles = false, rowCells, rowAttributes, empty }: {
  /** The table's accessible name. */
  label: string;
  className?: string;
  /** Added to the scrolling wrapper's class (e.g. one that also limits its height). */
  wrapClassName?: string;
  /** Each cell carries its column's title (data-label), for a stylesheet that lays rows out as cards. */
  labelCells?: boolean;
  /**
   * ARIA roles written out on the table, its body, rows and cells: a stylesheet that turns rows
   * into cards (display: block) would otherwise take the table semantics away.
   */
  explicitRoles?: boolean;
  /**
   * The cells of a row drawn another way, undefined: the columns' cells. A row edited in place,
   * or a component drawing its row's cells (a fragment of <td>s) because they share state (an
   * action of the row whose error one cell shows).
   */
  rowCells?: (row: R) => ReactNode | undefined;
  rowAttributes?: (row: R) => RowAttributes;
  /** Said in the table's body when there are no rows (else the body is empty). */
  empty?: ReactNode;
  columns: readonly Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string;
}) {
  return (
    <div className={wrapClassName ? `table-wrap ${wrapClassName}` : 'table-wrap'}>
      <table className={className} aria-label={label} role={explicitRoles ? 'table' : undefined}>
        <thead>
          <tr>
            {columns.map((c) => <Header key={c.key} column={c} />)}
          </tr>
        </thead>
        <tbody role={explicitRoles ? 'rowgroup' : undefined}>
          {rows.length === 0 && empty !== undefined ? (
            <tr role={explicitRoles ? 'row' : undefined}>
              <td colSpan={columns.length} role={explicitRoles ? 'cell' : undefined} className="muted">{empty}</td>
            </tr>
          ) : null}
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowAttributes?.(row)} role={explicitRoles ? 'row' : undefined}>
              {rowCells?.(row) ?? columns.map((c) => {
                const cellClass = c.cellClassName ? c.cellClassName(row) : c.className;
                const dataLabel = labelCells && !c.unlabelled && typeof c.header === 'string' ? c.header : undefined;
                const content = c.cell?.(row);
                return c.rowHeader
                  ? <th key={c.key} scope="row" className={cellClass} title={c.cellTitle?.(row)} data-label={dataLabel}>{content}</th>
                  : <td key={c.key} role={explicitRoles ? 'cell' : undefined} className={cellClass} title={c.cellTitle?.(row)} data-label={dataLabel}>{content}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Header<R>({ column: c }: { column: Column<R> }) {
  if (!c.sort) return <th scope="col" className={c.className}>{c.header}</th>;
  const dir = c.sort.direction;
  return (
    <th scope="col" className={c.className} aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}>
      <button type="button" aria-label={`Sort by ${typeof c.header === 'string' ? c.header : c.key}`} onClick={c.sort.onSort}>
        {c.header}
        {dir ? <span aria-hidden="true">{dir === 'asc' ? ' ▲' : ' ▼'}</span> : null}
      </button>
    </th>
  );
}
