// What the entity's incidents depend on (GET/PUT/DELETE .../dependencies): declared causes by
// entity id (objects or links: "this service depends on that link"), whether the parents count
// too, and the incident level from which a cause's incident counts. An incident raised while a
// cause is in trouble is suppressed, naming the cause; the server refuses unknown ids (400).
import { useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { useAction } from '../../../components/use-action';
import { ConfirmButton } from './confirm-button';
import { useEntityRoute } from './entity';

export function DependenciesEditor({ id }: { id: string }) {
  const r = useEntityRoute();
  const path = r('/node/api/objects/{id}/dependencies');
  const doc = useApi(() => api.GET(path, { params: { path: { id } } }).then(data), [id, path]);
  const levels = useApi(async () => data(await api.GET('/node/api/incident-levels')), []);
  const [ids, setIds] = useState('');
  const [parents, setParents] = useState(true);
  const [minLevel, setMinLevel] = useState('');
  const [shown, setShown] = useState<unknown>();
  if (doc.data !== undefined && doc.data !== shown) {
    setShown(doc.data);
    setIds(doc.data.dependsOn.join(', '));
    setParents(doc.data.parents);
    setMinLevel(doc.data.minLevel ?? '');
  }
  const action = useAction();
  const [saved, setSaved] = useState('');
  const run = async (change: () => Promise<unknown>, done: string) => {
    setSaved('');
    if (await action.run(change)) {
      setSaved(done);
      doc.reload();
    }
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    const dependsOn = ids.split(/[\s,]+/).filter(Boolean);
    const body = { dependsOn, parents, ...(minLevel ? { minLevel } : {}) };
    void run(() => api.PUT(path, { params: { path: { id } }, body }), 'Saved.');
  };
  const remove = () => void run(() => api.DELETE(path, { params: { path: { id } } }), 'Deleted.');
  return (
    <form className="panel" onSubmit={save} aria-labelledby="obj-dependencies">
      <h2 id="obj-dependencies">Dependencies</h2>
      <p className="muted obj-help">
        An incident raised here while a cause is Down or has an active incident (from the level below up) is suppressed and names the cause; it notifies when
        the cause clears.
      </p>
      <Field label="Depends on (entity ids, comma-separated)">
        <input value={ids} onChange={(e) => setIds(e.target.value)} disabled={doc.data === undefined && !doc.error} />
      </Field>
      <label className="inc-check">
        <input type="checkbox" checked={parents} onChange={(e) => setParents(e.target.checked)} /> Parents count as causes
      </label>
      <Field label="Counts from level">
        <select value={minLevel} onChange={(e) => setMinLevel(e.target.value)}>
          <option value="">Default (configured)</option>
          {(levels.data ?? []).filter((l) => l.id !== '3').map((l) => <option key={l.id} value={l.id}>{l.name}</option>)}
        </select>
      </Field>
      <ErrorBanner error={action.error ?? doc.error ?? levels.error} />
      {saved ? <p className="muted" role="status">{saved}</p> : null}
      <div className="row">
        <button type="submit" className="primary" disabled={action.busy}>
          Save dependencies
        </button>
        <ConfirmButton label="Delete" subject="dependencies" onConfirm={remove} disabled={action.busy} />
      </div>
    </form>
  );
}
