// "New object": a name and a class, under the selected object (or the root). POST /objects; the API's
// error (a missing right, a bad name) is shown as it comes.
import { useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client';
import { Dialog } from '../../../components/dialog';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { useAction } from '../../../components/use-action';
import { ClassSelect } from '../pickers/class-select';
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
  const [classId, setClassId] = useState<string | null>(null);
  const create = useAction();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await create.run(async () => onCreated(data(await api.POST('/node/api/objects', { body: { name: name.trim(), parent_id: [parent.id], ...(classId !== null ? { class_id: classId } : {}) } }))));
  };

  return (
    <form onSubmit={(e) => void submit(e)}>
      <Field label="Name">
        <input value={name} onChange={(e) => setName(e.target.value)} required autoFocus maxLength={500} />
      </Field>
      <ClassSelect value={classId} onChange={setClassId} />
      <p className="muted">
        Parent: <strong>{parent.name}</strong> (id {parent.id})
      </p>
      <ErrorBanner error={create.error} />
      <div className="row">
        <span className="spacer" />
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={create.busy || name.trim() === ''}>
          Create
        </button>
      </div>
    </form>
  );
}
