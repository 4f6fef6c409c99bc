// Suppressing an incident by hand until a time: it notifies nobody until then.
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { Dialog } from '../../components/dialog';
import { DialogButtons } from '../../components/dialog-buttons';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { fromLocalInput, toLocalInput } from '../../components/time-input';
import { useAction } from '../../components/use-action';
import type { Incident } from './types';

const HOUR = 3_600_000;

export function SuppressDialog({ incident, onClose, onDone }: { incident: Incident; onClose: () => void; onDone: () => void }) {
  const [until, setUntil] = useState(() => toLocalInput(Math.ceil((Date.now() + HOUR) / 60_000) * 60_000));
  const [message, setMessage] = useState('');
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ms = fromLocalInput(until);
    if (ms === undefined) return action.fail(new Error('Until: give a time'));
    const body = { until: ms, ...(message.trim() ? { message } : {}) };
    const ok = await action.run(() => api.POST('/node/api/incidents/{id}/suppress', { params: { path: { id: incident.id } }, body }));
    if (ok) onDone();
  };
  return (
    <Dialog title={`Suppress incident ${incident.id}`} open onClose={onClose}>
      <form onSubmit={submit}>
        <Field label="Until">
          <input type="datetime-local" step={1} required value={until} onChange={(e) => setUntil(e.target.value)} />
        </Field>
        <Field label="Why (optional)">
          <input value={message} maxLength={10000} onChange={(e) => setMessage(e.target.value)} />
        </Field>
        <ErrorBanner error={action.error} />
        <DialogButtons label="Suppress" disabled={action.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
