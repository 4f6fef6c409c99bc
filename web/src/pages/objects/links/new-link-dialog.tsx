// "New link": a link between two objects (POST /links {source, target, name}), its ends chosen
// among the children of the selected object (the first CHILDREN of them) or by name search.
import { useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { Dialog } from '../../../components/dialog';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { useAction } from '../../../components/use-action';
import type { Picked } from '../pickers/object-picker';
import type { Selection } from '../tree/types';
import { LinkEnd } from './link-end';
import { DialogButtons } from '../../../components/dialog-buttons';

const CHILDREN = 200;

export function NewLinkDialog({ parent, onClose, onCreated }: { parent: Selection; onClose: () => void; onCreated: (id: string) => void }) {
  const kids = useApi(
    () => api.GET('/node/api/objects/{id}/children', { params: { path: { id: parent.id }, query: { limit: CHILDREN, fields: 'name' } } }).then(data),
    [parent.id],
  );
  const children: Picked[] = (kids.data ?? []).map((o) => ({ id: o.id, name: o.name ?? o.id }));
  const [source, setSource] = useState<Picked>();
  const [target, setTarget] = useState<Picked>();
  const [name, setName] = useState('');
  const action = useAction();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!source || !target) return action.fail(new Error('Choose both the source and the target.'));
    await action.run(async () => {
      const created = data(await api.POST('/node/api/links', { body: { source: source.id, target: target.id, ...(name.trim() ? { name: name.trim() } : {}) } }));
      onCreated(created.id);
    });
  };

  return (
    <Dialog title="New link" open onClose={onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <p className="muted">
          Between children of <strong>{parent.name}</strong>
          {kids.data && kids.data.length >= CHILDREN ? ` (the first ${CHILDREN}; find others by name)` : ''}, or any objects found by name.
        </p>
        <ErrorBanner error={kids.error} />
        {kids.data && children.length === 0 ? <p className="muted">{parent.name} has no children: find the ends by name.</p> : null}
        <LinkEnd label="Source" value={source} choices={children} onChange={setSource} />
        <LinkEnd label="Target" value={target} choices={children} onChange={setTarget} />
        <Field label="Link name">
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={500} />
        </Field>
        <ErrorBanner error={action.error} />
        <DialogButtons label="Create link" disabled={action.busy} onCancel={onClose} cancelFirst />
      </form>
    </Dialog>
  );
}
