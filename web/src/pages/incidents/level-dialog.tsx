// Changing an incident's level by hand (not to Cleared: that is the Clear button).
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { Dialog } from '../../components/dialog';
import { DialogButtons } from '../../components/dialog-buttons';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { useAction } from '../../components/use-action';
import { CLEARED, type Incident } from './types';
import type { Levels } from './use-levels';

export function LevelDialog({ incident, levels, onClose, onDone }: { incident: Incident; levels: Levels; onClose: () => void; onDone: () => void }) {
  const [state, setState] = useState(String(incident.state));
  const action = useAction();
  const choices = [...levels.values()].filter((l) => Number(l.id) !== CLEARED).sort((a, b) => b.priority - a.priority);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await action.run(() => api.POST('/node/api/incidents/{id}/level', { params: { path: { id: incident.id } }, body: { state } }));
    if (ok) onDone();
  };
  return (
    <Dialog title={`Level of incident ${incident.id}`} open onClose={onClose}>
      <form onSubmit={submit}>
        <Field label="Level">
          <select value={state} onChange={(e) => setState(e.target.value)}>
            {choices.map((l) => <option key={l.id} value={l.id}>{l.name}</option>)}
          </select>
        </Field>
        <ErrorBanner error={action.error} />
        <DialogButtons label="Change level" disabled={action.busy || state === String(incident.state)} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
