// One property's cells in the properties table (its row drawn by this component: the cells
// share the row's editing state and action): shown, or edited in place (PATCH name, value,
// type_id), or deleted.
import { useState, type FormEvent } from 'react';
import { api } from '../../../api/client';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { formatTime } from '../../../components/format';
import { propTypeName } from '../../../components/prop-types';
import { useAction } from '../../../components/use-action';
import { ConfirmButton } from './confirm-button';
import { PropTypeSelect } from './prop-type-select';
import type { Property } from './types';
import { useEntityRoute } from './entity';

function Value({ p }: { p: Property }) {
  // External links open as links; only web addresses, never javascript: and the like.
  if (p.type_id === 6 && /^https?:\/\//i.test(p.value)) {
    return (
      <a href={p.value} target="_blank" rel="noreferrer noopener">
        {p.value}
      </a>
    );
  }
  return <span className="obj-value">{p.value}</span>;
}

export function PropertyCells({ id, p, onChanged }: { id: string; p: Property; onChanged: () => void }) {
  const r = useEntityRoute();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(p.name);
  const [value, setValue] = useState(p.value);
  const [typeId, setTypeId] = useState(p.type_id);
  const action = useAction();
  const path = { id, propId: p.id };

  const run = async (change: () => Promise<unknown>) => {
    if (await action.run(change)) {
      setEditing(false);
      onChanged();
    }
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    // Only what changed is sent: a read-only property refuses any change, renames included.
    const body: { name?: string; value?: string; type_id?: number } = { value };
    if (name !== p.name) body.name = name;
    if (typeId !== p.type_id) body.type_id = typeId;
    void run(() => api.PATCH(r('/node/api/objects/{id}/props/{propId}'), { params: { path }, body }));
  };
  const remove = () => void run(() => api.DELETE(r('/node/api/objects/{id}/props/{propId}'), { params: { path } }));
  const startEdit = () => {
    setName(p.name);
    setValue(p.value);
    setTypeId(p.type_id);
    setEditing(true);
  };

  return (
    <>
      {editing ? (
        <td colSpan={4}>
          <form className="row" onSubmit={save} aria-label={`Edit property ${p.name}`}>
            <Field label="Name">
              <input value={name} onChange={(e) => setName(e.target.value)} required />
            </Field>
            <div className="obj-grow">
              <Field label="Value">
                <textarea rows={value.length > 80 ? 4 : 1} value={value} onChange={(e) => setValue(e.target.value)} />
              </Field>
            </div>
            <PropTypeSelect value={typeId} onChange={setTypeId} />
            <button type="submit" className="primary" disabled={action.busy}>
              Save
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </form>
          <ErrorBanner error={action.error} />
        </td>
      ) : (
        <>
          <td data-label="Name">{p.name}</td>
          <td data-label="Value">
            <Value p={p} />
            <ErrorBanner error={action.error} />
          </td>
          <td data-label="Type">{propTypeName(p.type_id)}</td>
          <td data-label="Updated" className="muted">{formatTime(p.updated)}</td>
        </>
      )}
      <td className="obj-actions">
        {editing ? null : (
          <button type="button" onClick={startEdit} aria-label={`Edit property ${p.name}`}>
            Edit
          </button>
        )}
        <ConfirmButton label="Delete" subject={`property ${p.name}`} onConfirm={remove} />
      </td>
    </>
  );
}
