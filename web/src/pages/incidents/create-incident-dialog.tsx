// Raising a manual incident (POST /incidents): find the object by name, choose a level (any
// but Cleared) and write what is wrong.
import { useEffect, useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { Dialog } from '../../components/dialog';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { CLEARED, type Incident } from './types';
import type { Levels } from './use-levels';

const MATCHES = 20;
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function CreateIncidentDialog({ levels, onClose, onCreated }: { levels: Levels; onClose: () => void; onCreated: (i: Incident) => void }) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [entityId, setEntityId] = useState('');
  // Searching as one types, but not once per key.
  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), 250);
    return () => clearTimeout(t);
  }, [typed]);
  const choices = [...levels.values()].filter((l) => Number(l.id) !== CLEARED);
  const [level, setLevel] = useState('');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  // The first matches by name; the operator narrows the words until the object shows.
  const found = useApi(async () => {
    const criteria = search ? { name: { $regex: escapeRegex(search), $options: 'i' } } : {};
    return data(await api.POST('/node/api/objects/search', { body: { search: criteria, options: { limit: MATCHES } } }));
  }, [search]);
  const objects = found.data ?? [];
  // The chosen object while it is among the matches, else the first match.
  const chosenEntity = objects.some((o) => o.id === entityId) ? entityId : (objects[0]?.id ?? '');

  const chosenLevel = level || choices[0]?.id || '';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onCreated(data(await api.POST('/node/api/incidents', { body: { entityId: chosenEntity, state: chosenLevel, text } })));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
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
        <ErrorBanner error={error ?? found.error} />
        <div className="row">
          <button type="submit" className="primary" disabled={busy || !chosenEntity || !chosenLevel}>
            Raise incident
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
