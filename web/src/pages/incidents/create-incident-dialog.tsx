// Raising a manual incident (POST /incidents): find the object by name, choose a level (any
// but Cleared) and write what is wrong.
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { Dialog } from '../../components/dialog';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { ObjectSearch } from '../../components/object-search';
import { useAction } from '../../components/use-action';
import { CLEARED, type Incident } from './types';
import type { Levels } from './use-levels';
import { DialogButtons } from '../../components/dialog-buttons';

const MATCHES = 20;

export function CreateIncidentDialog({ levels, onClose, onCreated }: { levels: Levels; onClose: () => void; onCreated: (i: Incident) => void }) {
  // The object the search's drop-down shows (the first match until one is chosen).
  const [chosenEntity, setEntityId] = useState('');
  const choices = [...levels.values()].filter((l) => Number(l.id) !== CLEARED);
  const [level, setLevel] = useState('');
  const [text, setText] = useState('');
  const raise = useAction();

  const chosenLevel = level || choices[0]?.id || '';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await raise.run(async () => onCreated(data(await api.POST('/node/api/incidents', { body: { entityId: chosenEntity, state: chosenLevel, text } }))));
  };

  return (
    <Dialog title="New incident" open onClose={onClose}>
      <form onSubmit={submit}>
        {/* The first matches by name, as one types; the operator narrows the words until the object shows. */}
        <ObjectSearch
          label="Find object"
          labelShown
          hint="Part of the object's name"
          maxLength={200}
          limit={MATCHES}
          order="stored"
          blankFindsAll
          select={{ label: 'Object', optionText: (o) => o.path || o.name || o.id, onChange: setEntityId }}
        />
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
        <ErrorBanner error={raise.error} />
        <DialogButtons label="Raise incident" disabled={raise.busy || !chosenEntity || !chosenLevel} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
