// Rename a link (PATCH /links/{id} {name}). Its class is fixed when it is created: the server
// refuses to change it.
import { useState, type FormEvent } from 'react';
import { api } from '../../../api/client';
import { Dialog } from '../../../components/dialog';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { useAction } from '../../../components/use-action';
import type { LinkRecord } from './types';
import { DialogButtons } from '../../../components/dialog-buttons';

export function EditLinkDialog({ link, onClose, onSaved }: { link: LinkRecord; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState(link.name ?? '');
  const action = useAction();

  const save = async (e: FormEvent) => {
    e.preventDefault();
    await action.run(async () => {
      await api.PATCH('/node/api/links/{id}', { params: { path: { id: link.id } }, body: { name: name.trim() } });
      onSaved();
    });
  };

  return (
    <Dialog title="Edit link" open onClose={onClose}>
      <form onSubmit={save}>
        <Field label="Link name">
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={500} autoFocus />
        </Field>
        <ErrorBanner error={action.error} />
        <DialogButtons label="Save" disabled={action.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
