// A state's id (new ones only, optional), name, priority and colour, for adding and changing.
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { useAction } from '../../components/use-action';
import { checkColor, ColorField } from './color-field';

export interface StateValues {
  id: string;
  name: string;
  priority: string;
  color: string;
}

export function StateForm({ initial, label, withId, submitLabel, onSubmit, onCancel }: {
  initial: StateValues;
  /** Names the form and prefixes its fields' labels. */
  label: string;
  withId: boolean;
  submitLabel: string;
  onSubmit: (v: { id?: number; name: string; priority: number; color: string }) => Promise<void>;
  onCancel?: () => void;
}) {
  const [v, setV] = useState(initial);
  const save = useAction();
  const set = (key: keyof StateValues, value: string) => setV((old) => ({ ...old, [key]: value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await save.run(async () => {
      checkColor(v.color);
      await onSubmit({
        ...(withId && v.id.trim() !== '' ? { id: Number(v.id) } : {}),
        name: v.name.trim(),
        priority: Number(v.priority),
        color: v.color.trim(),
      });
    });
    if (ok && !onCancel) setV(initial);
  }

  return (
    <form onSubmit={submit} aria-label={label}>
      <ErrorBanner error={save.error} />
      <div className="adm-inline-form">
        {withId ? (
          <Field label={`${label}: id`}>
            <input type="number" min={1} max={1000000} step={1} placeholder="next free" title="empty: the next free id" value={v.id} onChange={(e) => set('id', e.target.value)} />
          </Field>
        ) : null}
        <Field label={`${label}: name`}>
          <input value={v.name} onChange={(e) => set('name', e.target.value)} required maxLength={256} />
        </Field>
        <Field label={`${label}: priority`}>
          <input type="number" title="a parent takes the state of highest priority among its children" step={1} min={-1000000} max={1000000} value={v.priority} onChange={(e) => set('priority', e.target.value)} required />
        </Field>
        <ColorField label={`${label}: colour`} value={v.color} onChange={(c) => set('color', c)} />
        <button type="submit" className="primary" disabled={save.busy}>{submitLabel}</button>
        {onCancel ? <button type="button" onClick={onCancel}>Cancel</button> : null}
      </div>
    </form>
  );
}
