// The object's name, path, state and tags, with the dialog that renames it and sets its tags.
import { useState } from 'react';
import { StateBadge } from '../../../components/states';
import { EditObjectDialog } from './edit-object-dialog';
import type { ObjectRecord, Tag } from './types';

export function ObjectHeader({ object, tags, onSaved }: { object: ObjectRecord; tags: Tag[] | undefined; onSaved: () => void }) {
  const [editing, setEditing] = useState(false);
  const names = new Map((tags ?? []).map((t) => [t.id, t.name]));
  return (
    <header className="obj-header">
      <div className="obj-title">
        <h1>{object.name}</h1>
        {object.state_id !== undefined ? <StateBadge stateId={object.state_id} /> : null}
        <span className="spacer" />
        <button type="button" onClick={() => setEditing(true)}>
          Edit name and tags
        </button>
      </div>
      <p className="muted obj-path">
        {object.path || '/'} · id {object.id}
      </p>
      <ul className="obj-tags" aria-label="Tags">
        {(object.tags ?? []).map((id) => (
          <li key={id} className="obj-tag">
            {names.get(id) ?? `tag ${id}`}
          </li>
        ))}
        {(object.tags ?? []).length === 0 ? <li className="muted">no tags</li> : null}
      </ul>
      {editing ? (
        <EditObjectDialog
          object={object}
          tags={tags ?? []}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onSaved();
          }}
        />
      ) : null}
    </header>
  );
}
