// Add a property (POST /objects/{id}/props {name, value, type_id}).
import { useState, type FormEvent } from 'react';
import { api } from '../../../api/client';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { useAction } from '../../../components/use-action';
import { PropTypeSelect } from './prop-type-select';
import { useEntityRoute } from './entity';

export function AddPropertyForm({ id, onAdded }: { id: string; onAdded: () => void }) {
  const r = useEntityRoute();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [typeId, setTypeId] = useState(3);
  const add = useAction();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await add.run(async () => {
      await api.POST(r('/node/api/objects/{id}/props'), { params: { path: { id } }, body: { name, value, type_id: typeId } });
      setName('');
      setValue('');
      onAdded();
    });
  };

  return (
    <form className="panel" onSubmit={submit} aria-labelledby="obj-add-prop">
      <h3 id="obj-add-prop">Add a property</h3>
      <div className="row">
        <Field label="Property name">
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </Field>
        <Field label="Property value">
          <input value={value} onChange={(e) => setValue(e.target.value)} />
        </Field>
        <PropTypeSelect value={typeId} onChange={setTypeId} label="Property type" />
        <button type="submit" className="primary" disabled={add.busy}>
          Add property
        </button>
      </div>
      {typeId === 8 ? <p className="muted">A service property holding a check definition is easier to write in the Checks tab.</p> : null}
      <ErrorBanner error={add.error} />
    </form>
  );
}
