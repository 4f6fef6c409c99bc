// Rename an object and pick its tags (PATCH /objects/{id} {name, tags}).
import { useState, type FormEvent } from 'react';
import { api } from '../../../api/client';
import { Dialog } from '../../../components/dialog';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { useAction } from '../../../components/use-action';
import type { ObjectRecord, Tag } from './types';

export function EditObjectDialog({ object, tags, onClose, onSaved }: { object: ObjectRecord; tags: Tag[]; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState(object.name ?? '');
  const [chosen, setChosen] = useState(() => new Set(object.tags ?? []));
  const [filter, setFilter] = useState('');
  const action = useAction();

  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    await action.run(async () => {
      await api.PATCH('/node/api/objects/{id}', { params: { path: { id: object.id } }, body: { name, tags: [...chosen] } });
      onSaved();
    });
  };

  // A long tag catalogue gets a filter so the checkboxes stay scannable.
  const shown = tags.filter((t) => t.name.toLowerCase().includes(filter.toLowerCase()));
  return (
    <Dialog title="Edit object" open onClose={onClose}>
      <form onSubmit={save}>
        <Field label="Name">
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </Field>
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
        <ErrorBanner error={action.error} />
        <div className="row">
          <button type="submit" className="primary" disabled={action.busy}>
            Save
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
