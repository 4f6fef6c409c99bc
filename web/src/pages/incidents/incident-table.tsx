// The incidents table both pages use: the layout's columns in order, sortable headers where the
// server sorts, each row tinted with its incident level's colour, and a cell of row actions.
// Active rows take their current level's colour (Cleared once cleared), history rows the
// level they had. On a narrow screen the rows stack as cards (incidents.css), each cell labelled by its column.
import type { CSSProperties, ReactNode } from 'react';
import { COLUMN_BY_ID, isSortable, type CellContext, type Column } from './columns';
import type { TableLayout } from './table-layout';
import { levelColor } from './use-levels';
import type { Incident, Scope } from './types';

interface Props {
  scope: Scope;
  rows: Incident[];
  layout: TableLayout;
  ctx: CellContext;
  onSort: (column: string) => void;
  actions: (i: Incident) => ReactNode;
  empty: string;
}

export function IncidentTable({ scope, rows, layout, ctx, onSort, actions, empty }: Props) {
  // History rows are all cleared: their colour is the level they had.
  const levelOf = (i: Incident) => (scope === 'history' ? i.lastState : i.state);
  const columns = layout.order.filter((id) => layout.visible[id]).map((id) => COLUMN_BY_ID.get(id)).filter((c): c is Column => !!c);
  return (
    <div className="table-wrap">
      <table className="inc-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <Header key={c.id} column={c} sortable={isSortable(scope, c.id)} layout={layout} onSort={onSort} />
            ))}
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length + 1} className="muted">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((i) => (
              <tr key={i.id} className="inc-row" data-incident={i.id} data-level={levelOf(i)} style={{ '--inc-level': levelColor(ctx.levels, levelOf(i)) } as CSSProperties}>
                {columns.map((c) => (
                  <td key={c.id} data-label={c.label}>
                    {c.render(i, ctx)}
                  </td>
                ))}
                <td data-label="Actions" className="inc-actions">
                  {actions(i)}
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

function Header({ column, sortable, layout, onSort }: { column: Column; sortable: boolean; layout: TableLayout; onSort: (c: string) => void }) {
  if (!sortable) return <th scope="col">{column.label}</th>;
  const active = layout.sort.column === column.id;
  const dir = layout.sort.direction;
  return (
    <th scope="col" aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" aria-label={`Sort by ${column.label}`} onClick={() => onSort(column.id)}>
        {column.label}
        {active ? <span aria-hidden="true">{dir === 'asc' ? ' ▲' : ' ▼'}</span> : null}
      </button>
    </th>
  );
}
