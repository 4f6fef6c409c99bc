// Sorting where the table's header is gone: on a narrow screen the rows are cards (incidents.css)
// and the header's sort buttons are hidden, so this select and direction button take their place.
// On a wide screen it is hidden (and so out of the Tab order): the headers sort there.
import { Field } from '../../components/field';
import { COLUMNS, isSortable } from './columns';
import type { TableLayout } from './table-layout';
import type { Scope } from './types';

export function NarrowSort({ scope, layout, onChange }: { scope: Scope; layout: TableLayout; onChange: (l: TableLayout) => void }) {
  const columns = COLUMNS.filter((c) => isSortable(scope, c.id));
  const { column, direction } = layout.sort;
  const descending = direction === 'desc';
  return (
    <div className="row inc-narrow-sort">
      <Field label="Sort by">
        <select value={column} onChange={(e) => onChange({ ...layout, sort: { column: e.target.value, direction } })}>
          {columns.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </Field>
      <button
        type="button"
        aria-label={`Sort direction: ${descending ? 'descending' : 'ascending'}`}
        title="Change the sort direction"
        onClick={() => onChange({ ...layout, sort: { column, direction: descending ? 'asc' : 'desc' } })}
      >
        {descending ? '▼ Descending' : '▲ Ascending'}
      </button>
    </div>
  );
}
