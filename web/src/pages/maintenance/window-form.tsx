// Creating or changing a maintenance window: name, schedule (one-off, daily, weekly with day
// boxes, monthly), time zone, scope (objects picked by name, "subtree", tags) and whether data
// is collected meanwhile. Sends what the API takes (POST/PATCH /maintenance).
import { useState, type FormEvent } from 'react';
import { api, data, type paths } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { fromLocalInput, toLocalInput } from '../../components/time-input';
import { useAction } from '../../components/use-action';
import { ObjectPicker, type Picked } from '../objects/pickers/object-picker';
import { TagBoxes } from '../objects/detail/tag-boxes';

export type MaintenanceWindow = paths['/node/api/maintenance/{id}']['get']['responses'][200]['content']['application/json'];
type Body = paths['/node/api/maintenance']['post']['requestBody']['content']['application/json'];
type Kind = 'once' | 'daily' | 'weekly' | 'monthly';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const HOUR = 3_600_000;
/** The runtime's zones when it lists them; the browser's own zone first. */
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const ZONES: string[] = (() => {
  const list = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return [...new Set([HERE, 'UTC', ...list])];
})();

export function WindowForm({ initial, onSaved, onCancel }: { initial?: MaintenanceWindow; onSaved: () => void; onCancel?: () => void }) {
  const s = initial?.schedule;
  const now = Date.now();
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [kind, setKind] = useState<Kind>(s?.type ?? 'once');
  const [from, setFrom] = useState(toLocalInput(s?.from ?? now));
  const [to, setTo] = useState(toLocalInput(s?.to ?? now + HOUR));
  const [start, setStart] = useState(s?.start ?? '22:00');
  const [duration, setDuration] = useState(String(s?.durationMinutes ?? 60));
  const [days, setDays] = useState<Set<number>>(new Set(s?.days ?? [1]));
  const [day, setDay] = useState(String(s?.day ?? 1));
  const [timeZone, setTimeZone] = useState(initial?.timeZone ?? HERE);
  const [objects, setObjects] = useState<Picked[]>((initial?.scope.objects ?? []).map((id) => ({ id, name: `object ${id}` })));
  const [subtree, setSubtree] = useState(initial?.scope.subtree ?? false);
  const [tags, setTags] = useState<Set<string>>(new Set(initial?.scope.tags ?? []));
  const [collectData, setCollectData] = useState(initial?.collectData ?? true);
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const tagList = useApi(async () => data(await api.GET('/node/api/tags')), []);
  // The names of the objects an edited window names (the record carries their ids).
  const known = useApi(async () => {
    const ids = (initial?.scope.objects ?? []).slice(0, 200);
    const records = await Promise.all(ids.map((id) => api.GET('/node/api/objects/{id}', { params: { path: { id }, query: { fields: 'name' } } }).then(data, () => undefined)));
    return new Map(records.filter((r) => r !== undefined).map((r) => [r.id, r.name ?? r.id]));
  }, [initial?.id]);
  const nameOf = (o: Picked) => known.data?.get(o.id) ?? o.name;
  const save = useAction();

  function schedule(): Body['schedule'] {
    if (kind === 'once') {
      // An untouched field keeps the window's own ms (the input shows whole seconds).
      const f = s?.from !== undefined && from === toLocalInput(s.from) ? s.from : fromLocalInput(from);
      const t = s?.to !== undefined && to === toLocalInput(s.to) ? s.to : fromLocalInput(to);
      if (f === undefined || t === undefined) throw new Error('Give the start and the end of the window.');
      return { type: 'once', from: f, to: t };
    }
    const common = { start, durationMinutes: Number(duration) };
    if (kind === 'daily') return { type: 'daily', ...common };
    if (kind === 'weekly') return { type: 'weekly', days: [...days].sort(), ...common };
    return { type: 'monthly', day: Number(day), ...common };
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await save.run(async () => {
      const body: Body = {
        name: name.trim(), description, schedule: schedule(), timeZone, collectData, enabled,
        scope: { objects: objects.map((o) => o.id), subtree, tags: [...tags] },
      };
      if (initial) await api.PATCH('/node/api/maintenance/{id}', { params: { path: { id: initial.id } }, body });
      else await api.POST('/node/api/maintenance', { body });
    });
    if (ok) onSaved();
  }

  const toggleDay = (d: number) => {
    const next = new Set(days);
    if (next.has(d)) next.delete(d);
    else next.add(d);
    setDays(next);
  };

  return (
    <form onSubmit={submit} aria-label={initial ? `Edit maintenance window ${initial.name}` : 'New maintenance window'}>
      <ErrorBanner error={save.error} />
      <div className="adm-form-grid">
        <Field label="Window name">
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </Field>
        <Field label="Description">
          <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={4000} />
        </Field>
        <Field label="Repeats">
          <select value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
            <option value="once">One-off</option>
            <option value="daily">Daily</option>
            <option value="weekly">Weekly</option>
            <option value="monthly">Monthly</option>
          </select>
        </Field>
        <Field label="Time zone">
          <select value={timeZone} onChange={(e) => setTimeZone(e.target.value)}>
            {ZONES.map((z) => <option key={z} value={z}>{z}</option>)}
          </select>
        </Field>
        {kind === 'once' ? (
          <>
            <Field label="From" hint="in this browser's time">
              <input type="datetime-local" step={1} value={from} onChange={(e) => setFrom(e.target.value)} required />
            </Field>
            <Field label="To">
              <input type="datetime-local" step={1} value={to} onChange={(e) => setTo(e.target.value)} required />
            </Field>
          </>
        ) : (
          <>
            <Field label="Starts at" hint="HH:MM on the clock of the time zone">
              <input type="time" value={start} onChange={(e) => setStart(e.target.value)} required />
            </Field>
            <Field label="Duration (minutes)">
              <input type="number" min={1} max={44640} value={duration} onChange={(e) => setDuration(e.target.value)} required />
            </Field>
          </>
        )}
        {kind === 'monthly' ? (
          <Field label="Day of the month" hint="a month without it: its last day">
            <input type="number" min={1} max={31} value={day} onChange={(e) => setDay(e.target.value)} required />
          </Field>
        ) : null}
      </div>
      {kind === 'weekly' ? (
        <fieldset className="adm-picker">
          <legend>Days</legend>
          {DAYS.map((label, i) => (
            <label key={label} className="obj-check">
              <input type="checkbox" checked={days.has(i + 1)} onChange={() => toggleDay(i + 1)} /> {label}
            </label>
          ))}
        </fieldset>
      ) : null}
      <fieldset className="adm-picker">
        <legend>Objects</legend>
        <ul className="adm-chips" aria-label="Objects in the window">
          {objects.map((o) => (
            <li key={o.id} className="adm-chip">
              {nameOf(o)}
              <button type="button" aria-label={`Remove ${nameOf(o)}`} onClick={() => setObjects(objects.filter((x) => x.id !== o.id))}>×</button>
            </li>
          ))}
        </ul>
        <ObjectPicker label="Add an object" exclude={objects.map((o) => o.id)} onPick={(o) => setObjects([...objects, o])} />
        <label className="obj-check">
          <input type="checkbox" checked={subtree} onChange={(e) => setSubtree(e.target.checked)} /> With their subtrees
        </label>
      </fieldset>
      {tagList.data ? <TagBoxes tags={tagList.data} chosen={tags} onChange={setTags} /> : null}
      <label className="obj-check">
        <input type="checkbox" checked={collectData} onChange={(e) => setCollectData(e.target.checked)} /> Collect data during the window
      </label>
      <label className="obj-check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
      </label>
      <div className="adm-actions">
        <button type="submit" className="primary" disabled={save.busy}>{initial ? 'Save window' : 'Create window'}</button>
        {onCancel ? <button type="button" onClick={onCancel}>Cancel</button> : null}
      </div>
    </form>
  );
}
