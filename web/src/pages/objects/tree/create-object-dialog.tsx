// "New object": a name, under the selected object (or the root). POST /objects; the API's
// error (a missing right, a bad name) is shown as it comes.
import { useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client';
import { Dialog } from '../../../components/dialog';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import type { ObjectRecord, Selection } from './types';

interface Props {
  open: boolean;
  parent: Selection;
  onClose: () => void;
  onCreated: (created: ObjectRecord) => void;
}

export function CreateObjectDialog({ open, parent, onClose, onCreated }: Props) {
  return (
    <Dialog title="New object" open={open} onClose={onClose}>
      <CreateForm parent={parent} onClose={onClose} onCreated={onCreated} />
    </Dialog>
  );
}

function CreateForm({ parent, onClose, onCreated }: Omit<Props, 'open'>) {
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const created = data(await api.POST('/node/api/objects', { body: { name: name.trim(), parent_id: [parent.id] } }));
      onCreated(created);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)}>
      <Field label="Name">
        <input value={name} onChange={(e) => setName(e.target.value)} required autoFocus maxLength={500} />
      </Field>
      <p className="muted">
        Parent: <strong>{parent.name}</strong> (id {parent.id})
      </p>
      <ErrorBanner error={error} />
      <div className="row">
        <span className="spacer" />
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy || name.trim() === ''}>
          Create
        </button>
      </div>
    </form>
  );
}
