// Raising a manual incident (POST /incidents): find the object by name, choose a level (any
// but Cleared) and write what is wrong.
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { Dialog } from '../../components/dialog';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { containsText } from '../../components/search-text';
import { useAction } from '../../components/use-action';
import { useDebounced } from '../../components/use-debounced';
import { CLEARED, type Incident } from './types';
import type { Levels } from './use-levels';
import { DialogButtons } from '../../components/dialog-buttons';

const MATCHES = 20;

export function CreateIncidentDialog({ levels, onClose, onCreated }: { levels: Levels; onClose: () => void; onCreated: (i: Incident) => void }) {
  const [typed, setTyped] = useState('');
  // Searching as one types, but not once per key.
  const search = useDebounced(typed.trim(), 250);
  const [entityId, setEntityId] = useState('');
  const choices = [...levels.values()].filter((l) => Number(l.id) !== CLEARED);
  const [level, setLevel] = useState('');
  const [text, setText] = useState('');
  const raise = useAction();

  // The first matches by name; the operator narrows the words until the object shows.
  const found = useApi(async () => {
    const criteria = search ? { name: containsText(search) } : {};
    return data(await api.POST('/node/api/objects/search', { body: { search: criteria, options: { limit: MATCHES } } }));
  }, [search]);
  const objects = found.data ?? [];
  // The chosen object while it is among the matches, else the first match.
  const chosenEntity = objects.some((o) => o.id === entityId) ? entityId : (objects[0]?.id ?? '');

  const chosenLevel = level || choices[0]?.id || '';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await raise.run(async () => onCreated(data(await api.POST('/node/api/incidents', { body: { entityId: chosenEntity, state: chosenLevel, text } }))));
  };

  return (
    <Dialog title="New incident" open onClose={onClose}>
      <form onSubmit={submit}>
        <Field label="Find object" hint="Part of the object's name">
          <input type="search" value={typed} maxLength={200} onChange={(e) => setTyped(e.target.value)} />
        </Field>
        <Field label="Object">
          <select aria-label="Object" value={chosenEntity} required onChange={(e) => setEntityId(e.target.value)}>
            {objects.length === 0 ? <option value="">{found.loading ? 'Searching…' : 'No object matches'}</option> : null}
            {objects.map((o) => (
              <option key={o.id} value={o.id}>
                {o.path || o.name || o.id}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Level">
          <select aria-label="Level" value={chosenLevel} required onChange={(e) => setLevel(e.target.value)}>
            {choices.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Text">
          <textarea value={text} rows={3} maxLength={10000} onChange={(e) => setText(e.target.value)} />
        </Field>
        <ErrorBanner error={raise.error ?? found.error} />
        <DialogButtons label="Raise incident" disabled={raise.busy || !chosenEntity || !chosenLevel} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
