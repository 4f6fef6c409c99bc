// Which columns show and in what order: a checkbox per column and buttons that move it one
// place left or right (keyboard-usable, unlike dragging). The list reads in the table's order.
import { useState } from 'react';
import { COLUMN_BY_ID } from './columns';
import { moveColumn, type TableLayout } from './table-layout';

export function ColumnMenu({ layout, onChange }: { layout: TableLayout; onChange: (l: TableLayout) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="inc-menu" onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <button type="button" aria-expanded={open} aria-controls="inc-columns" onClick={() => setOpen(!open)}>
        Columns
      </button>
      {open ? (
        <ul id="inc-columns" className="inc-menu-list" aria-label="Columns">
          {layout.order.map((id, at) => {
            const label = COLUMN_BY_ID.get(id)?.label ?? id;
            return (
              <li key={id}>
                <label>
                  <input
                    type="checkbox"
                    checked={layout.visible[id] ?? false}
                    onChange={(e) => onChange({ ...layout, visible: { ...layout.visible, [id]: e.target.checked } })}
                  />{' '}
                  {label}
                </label>
                <span className="spacer" />
                <button type="button" className="icon" aria-label={`Move ${label} left`} disabled={at === 0} onClick={() => onChange(moveColumn(layout, id, -1))}>
                  ←
                </button>
                <button type="button" className="icon" aria-label={`Move ${label} right`} disabled={at === layout.order.length - 1} onClick={() => onChange(moveColumn(layout, id, 1))}>
                  →
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
