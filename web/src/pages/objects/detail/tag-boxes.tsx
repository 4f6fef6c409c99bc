// Tags as checkboxes; a long tag catalogue gets a filter so the boxes stay scannable.
import { useState } from 'react';
import { Field } from '../../../components/field';
import type { Tag } from './types';

export function TagBoxes({ tags, chosen, onChange }: { tags: Tag[]; chosen: Set<string>; onChange: (next: Set<string>) => void }) {
  const [filter, setFilter] = useState('');
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  };
  const shown = tags.filter((t) => t.name.toLowerCase().includes(filter.toLowerCase()));
  return (
    <fieldset className="obj-tag-picker">
      <legend>Tags</legend>
      {tags.length > 12 ? (
        <Field label="Filter tags">
          <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </Field>
      ) : null}
      {tags.length === 0 ? <p className="muted">No tags exist yet (create them under Tags, classes, states).</p> : null}
      <div className="obj-tag-boxes">
        {shown.map((t) => (
          <label key={t.id} className="obj-check">
            <input type="checkbox" checked={chosen.has(t.id)} onChange={() => toggle(t.id)} /> {t.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
