// Rename an object, pick its tags and change its parents (PATCH /objects/{id} {name, tags,
// parent_id}; parents only when changed). The class is shown, not offered: the server fixes it
// when the object is created (PATCH answers 400 "the class of an object cannot change").
import { useState, type FormEvent } from 'react';
import { api } from '../../../api/client';
import { Dialog } from '../../../components/dialog';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { useAction } from '../../../components/use-action';
import type { Picked } from '../pickers/object-picker';
import { ClassName } from './class-name';
import { ParentsEditor } from './parents-editor';
import { TagBoxes } from './tag-boxes';
import type { ObjectRecord, Tag } from './types';
import { DialogButtons } from '../../../components/dialog-buttons';

export function EditObjectDialog({ object, tags, parents: initialParents, onClose, onSaved }: { object: ObjectRecord; tags: Tag[]; parents: Picked[]; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState(object.name ?? '');
  const [chosen, setChosen] = useState(() => new Set(object.tags ?? []));
  const [parents, setParents] = useState(initialParents);
  const action = useAction();

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const parentIds = parents.map((p) => p.id);
    const parentsChanged = parentIds.join(',') !== (object.parent_id ?? []).join(',');
    await action.run(async () => {
      const body = { name, tags: [...chosen], ...(parentsChanged ? { parent_id: parentIds } : {}) };
      await api.PATCH('/node/api/objects/{id}', { params: { path: { id: object.id } }, body });
      onSaved();
    });
  };

  return (
    <Dialog title="Edit object" open onClose={onClose}>
      <form onSubmit={save}>
        <Field label="Name">
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </Field>
        <p className="muted">
          Class: <ClassName id={object.class_id ?? null} /> (chosen when the object is created)
        </p>
        <TagBoxes tags={tags} chosen={chosen} onChange={setChosen} />
        {/* The root has no parents to edit. */}
        {(object.parent_id ?? []).length > 0 || parents.length > 0 ? <ParentsEditor self={object.id} parents={parents} onChange={setParents} /> : null}
        <ErrorBanner error={action.error} />
        <DialogButtons label="Save" disabled={action.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
