// Name and colour of an incident level, for adding one and for changing one in its row.
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { checkColor, ColorField } from './color-field';

export function LevelForm({ initial, labels, submitLabel, onSubmit, onCancel }: {
  initial: { name: string; color: string };
  labels: { form: string; name: string; color: string };
  submitLabel: string;
  /** Resolves once saved; a rejection (the API's error) is shown. */
  onSubmit: (name: string, color: string) => Promise<void>;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(initial.name);
  const [color, setColor] = useState(initial.color);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      checkColor(color);
      await onSubmit(name.trim(), color.trim());
      if (!onCancel) {
        setName('');
        setColor(initial.color);
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-label={labels.form}>
      <ErrorBanner error={error} />
      <div className="adm-inline-form">
        <Field label={labels.name}>
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={256} />
        </Field>
        <ColorField label={labels.color} value={color} onChange={setColor} />
        <button type="submit" className="primary" disabled={busy}>{submitLabel}</button>
        {onCancel ? <button type="button" onClick={onCancel}>Cancel</button> : null}
      </div>
    </form>
  );
}
