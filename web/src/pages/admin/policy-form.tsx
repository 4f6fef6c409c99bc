// A notification policy: what it matches (levels, tags, objects, time of day), the channels it
// tells, grouping, repeats, escalation steps and the notice on clearing.
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { useAction } from '../../components/use-action';
import type { Level, Tag } from './admin-types';
import type { Channel, Policy, PolicyInput } from './notification-types';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const toggle = <T,>(list: T[], item: T) => (list.includes(item) ? list.filter((x) => x !== item) : [...list, item]);

/** "minutes: id, id" lines ↔ escalation steps. */
const stepsText = (steps: Policy['escalation']) => steps.map((s) => `${s.afterMinutes}: ${s.channels.join(', ')}`).join('\n');
function stepsOf(text: string): PolicyInput['escalation'] {
  return text.split('\n').map((l) => l.trim()).filter(Boolean).map((l) => {
    const [minutes, ids = ''] = l.split(':');
    return { afterMinutes: Number(minutes), channels: ids.split(',').map((x) => x.trim()).filter(Boolean) };
  });
}

function Checks<T extends string | number>({ legend, items, chosen, onChange }: {
  legend: string; items: Array<{ id: T; name: string }>; chosen: T[]; onChange: (next: T[]) => void;
}) {
  return (
    <fieldset className="notif-checks">
      <legend>{legend}</legend>
      {items.length === 0 ? <span className="muted">none</span> : null}
      {items.map((i) => (
        <label key={String(i.id)}>
          <input type="checkbox" checked={chosen.includes(i.id)} onChange={() => onChange(toggle(chosen, i.id))} /> {i.name}
        </label>
      ))}
    </fieldset>
  );
}

export function PolicyForm({ initial, channels, levels, tags, submitLabel, onSubmit, onCancel }: {
  initial?: Policy;
  channels: Channel[];
  levels: Level[];
  tags: Tag[];
  submitLabel: string;
  onSubmit: (input: PolicyInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(initial?.name ?? '');
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const [chosen, setChosen] = useState<string[]>(initial?.channels ?? []);
  const [lvls, setLvls] = useState<string[]>((initial?.match.levels ?? []).map(String));
  const [tagIds, setTagIds] = useState<string[]>(initial?.match.tags ?? []);
  const [objects, setObjects] = useState((initial?.match.objects ?? []).join(', '));
  const tod = initial?.match.timeOfDay;
  const [timed, setTimed] = useState(tod !== undefined);
  const [from, setFrom] = useState(tod?.from ?? '09:00');
  const [to, setTo] = useState(tod?.to ?? '17:00');
  const [zone, setZone] = useState(tod?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [days, setDays] = useState<number[]>(tod?.days ?? []);
  const [windowMs, setWindowMs] = useState(String(initial?.groupWindowMs ?? 10000));
  const [groupBy, setGroupBy] = useState<'parent' | 'policy'>(initial?.groupBy ?? 'parent');
  const [repeat, setRepeat] = useState(initial?.repeatMinutes == null ? '' : String(initial.repeatMinutes));
  const [steps, setSteps] = useState(stepsText(initial?.escalation ?? []));
  const [onClear, setOnClear] = useState(initial?.notifyOnClear ?? false);
  const save = useAction();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const objectIds = objects.split(',').map((x) => x.trim()).filter(Boolean);
    const input: PolicyInput = {
      name: name.trim(), enabled, channels: chosen,
      match: {
        ...(lvls.length ? { levels: lvls } : {}), ...(tagIds.length ? { tags: tagIds } : {}), ...(objectIds.length ? { objects: objectIds } : {}),
        ...(timed ? { timeOfDay: { from, to, timeZone: zone, ...(days.length ? { days } : {}) } } : {}),
      },
      groupWindowMs: Number(windowMs), groupBy, repeatMinutes: repeat.trim() === '' ? null : Number(repeat), escalation: stepsOf(steps), notifyOnClear: onClear,
    };
    const ok = await save.run(() => onSubmit(input));
    if (ok && !initial) {
      setName('');
      setChosen([]);
    }
  }

  return (
    <form onSubmit={submit} aria-label={initial ? `Edit policy ${initial.name}` : 'Add a policy'} className="notif-form">
      <ErrorBanner error={save.error} />
      <div className="adm-inline-form">
        <Field label="Policy name">
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </Field>
        <label><input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled</label>
        <label><input type="checkbox" checked={onClear} onChange={(e) => setOnClear(e.target.checked)} /> Notify on clear</label>
      </div>
      <Checks legend="Channels" items={channels.map((c) => ({ id: c.id, name: c.name }))} chosen={chosen} onChange={setChosen} />
      <Checks legend="Levels (none: any)" items={levels.map((l) => ({ id: l.id, name: l.name }))} chosen={lvls} onChange={setLvls} />
      <Checks legend="Tags (none: any)" items={tags.map((t) => ({ id: t.id, name: t.name }))} chosen={tagIds} onChange={setTagIds} />
      <div className="adm-inline-form">
        <Field label="Objects (ids, comma-separated; their subtrees)">
          <input value={objects} onChange={(e) => setObjects(e.target.value)} />
        </Field>
        <label><input type="checkbox" checked={timed} onChange={(e) => setTimed(e.target.checked)} /> Only at times of day</label>
        {timed ? (
          <>
            <Field label="From"><input type="time" value={from} onChange={(e) => setFrom(e.target.value)} required /></Field>
            <Field label="To"><input type="time" value={to} onChange={(e) => setTo(e.target.value)} required /></Field>
            <Field label="Time zone"><input value={zone} onChange={(e) => setZone(e.target.value)} required /></Field>
            <Checks legend="Days (none: every day)" items={DAYS.map((d, i) => ({ id: i + 1, name: d }))} chosen={days} onChange={setDays} />
          </>
        ) : null}
      </div>
      <div className="adm-inline-form">
        <Field label="Group window (ms)"><input type="number" min={0} max={3600000} value={windowMs} onChange={(e) => setWindowMs(e.target.value)} /></Field>
        <Field label="Group by">
          <select value={groupBy} onChange={(e) => setGroupBy(e.target.value as 'parent' | 'policy')}>
            <option value="parent">parent</option>
            <option value="policy">policy</option>
          </select>
        </Field>
        <Field label="Repeat every (minutes; empty: never)"><input type="number" min={0.01} step="any" value={repeat} onChange={(e) => setRepeat(e.target.value)} /></Field>
        <Field label="Escalation steps" hint={'One a line: "minutes: channel id, channel id"'}>
          <textarea rows={2} value={steps} onChange={(e) => setSteps(e.target.value)} />
        </Field>
        <button type="submit" className="primary" disabled={save.busy}>{submitLabel}</button>
        {onCancel ? <button type="button" onClick={onCancel}>Cancel</button> : null}
      </div>
    </form>
  );
}
