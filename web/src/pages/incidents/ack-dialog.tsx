// Acknowledging with details: a message (recorded and added as a comment), an expiry (the
// acknowledgement lapses then) and stickiness (not sticky: a worse level raised by the engine
// drops it). The row's plain Acknowledge button stays the base spec's empty-body acknowledge.
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { Dialog } from '../../components/dialog';
import { DialogButtons } from '../../components/dialog-buttons';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { fromLocalInput } from '../../components/time-input';
import { useAction } from '../../components/use-action';
import type { Incident } from './types';

export function AckDialog({ incident, onClose, onDone }: { incident: Incident; onClose: () => void; onDone: () => void }) {
  const [message, setMessage] = useState('');
  const [until, setUntil] = useState('');
  const [sticky, setSticky] = useState(true);
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ms = fromLocalInput(until);
    if (until !== '' && ms === undefined) return action.fail(new Error('Until: not a time'));
    const body = { ...(message.trim() ? { message } : {}), ...(ms !== undefined ? { until: ms } : {}), sticky };
    const ok = await action.run(() => api.POST('/node/api/incidents/{id}/acknowledge', { params: { path: { id: incident.id } }, body }));
    if (ok) onDone();
  };
  return (
    <Dialog title={`Acknowledge incident ${incident.id}`} open onClose={onClose}>
      <p className="muted">{incident.text}</p>
      <form onSubmit={submit}>
        <Field label="Message">
          <textarea value={message} rows={3} maxLength={10000} onChange={(e) => setMessage(e.target.value)} />
        </Field>
        <Field label="Until (optional)">
          <input type="datetime-local" step={1} value={until} onChange={(e) => setUntil(e.target.value)} />
        </Field>
        <label className="inc-check">
          <input type="checkbox" checked={sticky} onChange={(e) => setSticky(e.target.checked)} /> Sticky (kept when the level gets worse)
        </label>
        <ErrorBanner error={action.error} />
        <DialogButtons label="Acknowledge" disabled={action.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
