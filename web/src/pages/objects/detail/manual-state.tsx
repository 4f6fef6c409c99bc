// Set a manual state (PUT /objects/{id}/state) that wins over the conditions, or clear it
// (DELETE) so the conditions decide again.
import { useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { StateBadge, useStates } from '../../../components/states';
import { useAction } from '../../../components/use-action';
import { useEntityRoute } from './entity';

export function ManualState({ id, tick, onChanged }: { id: string; tick: number; onChanged: () => void }) {
  const r = useEntityRoute();
  const states = [...useStates().values()];
  const current = useApi(() => api.GET(r('/node/api/objects/{id}/state'), { params: { path: { id } } }).then(data), [id, tick]);
  const [choice, setChoice] = useState('');
  const action = useAction();
  const busy = action.busy;

  const run = async (change: () => Promise<unknown>) => {
    if (await action.run(change)) {
      current.reload();
      onChanged();
    }
  };
  const set = (e: FormEvent) => {
    e.preventDefault();
    const stateId = Number(choice || states[0]?.id);
    void run(() => api.PUT(r('/node/api/objects/{id}/state'), { params: { path: { id } }, body: { state_id: stateId } }));
  };
  const clear = () => void run(() => api.DELETE(r('/node/api/objects/{id}/state'), { params: { path: { id } } }));

  const manual = current.data?.manual_state_id ?? null;
  return (
    <section className="panel" aria-labelledby="obj-manual-state">
      <h2 id="obj-manual-state">Manual state</h2>
      <ErrorBanner error={action.error ?? current.error} />
      <p>
        {manual === null ? (
          <span className="muted">None: the conditions decide the state.</span>
        ) : (
          <>
            Manual state set: <StateBadge stateId={manual} />
          </>
        )}
      </p>
      <form className="row" onSubmit={set}>
        <Field label="State to set">
          <select value={choice || String(states[0]?.id ?? '')} onChange={(e) => setChoice(e.target.value)}>
            {states.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" className="primary" disabled={busy || states.length === 0}>
          Set manual state
        </button>
        {manual !== null ? (
          <button type="button" disabled={busy} onClick={clear}>
            Clear manual state
          </button>
        ) : null}
      </form>
    </section>
  );
}
