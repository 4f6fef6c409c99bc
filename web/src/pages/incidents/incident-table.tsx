// The incidents table both pages use: the layout's columns in order, sortable headers where the
// server sorts, each row tinted with its incident level's colour, and a cell of row actions.
// Active rows take their current level's colour (Cleared once cleared), history rows the
// level they had. On a narrow screen the rows stack as cards (incidents.css), each cell labelled
// by its column. The table is the shared one (components/data-table.tsx); the column menu that
// chooses and orders the columns stays beside it (column-menu.tsx).
import type { CSSProperties, ReactNode } from 'react';
import { DataTable, type Column as TableColumn } from '../../components/data-table';
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
  const shown = layout.order.filter((id) => layout.visible[id]).map((id) => COLUMN_BY_ID.get(id)).filter((c): c is Column => !!c);
  const columns: TableColumn<Incident>[] = [
    ...shown.map((c): TableColumn<Incident> => ({
      key: c.id,
      header: c.label,
      cell: (i) => c.render(i, ctx),
      sort: isSortable(scope, c.id) ? { direction: layout.sort.column === c.id ? layout.sort.direction : undefined, onSort: () => onSort(c.id) } : undefined,
    })),
    { key: 'actions', header: 'Actions', cell: actions, cellClassName: () => 'inc-actions' },
  ];
  return (
    <DataTable
      label={scope === 'history' ? 'Incident history' : 'Active incidents'}
      className="inc-table"
      labelCells
      columns={columns}
      rows={rows}
      rowKey={(i) => String(i.id)}
      rowAttributes={(i) => ({
        // A suppressed incident notifies nobody: greyed, with why in the Text cell (columns.tsx).
        className: i.suppression ? 'inc-row inc-suppressed' : 'inc-row',
        'data-incident': i.id,
        'data-level': levelOf(i),
        ...(i.suppression ? { 'data-suppressed': i.suppression.kind } : {}),
        style: { '--inc-level': levelColor(ctx.levels, levelOf(i)) } as CSSProperties,
      })}
      empty={empty}
    />
  );
}
