// The object's state changes, newest first, paged through the API, optionally within a range.
import { useState, type ChangeEvent } from 'react';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { formatTime } from '../../../components/format';
import { StateBadge } from '../../../components/states';
import { Pager } from './pager';
import { reasonText } from './state-reason';
import { fromLocalInput } from './time-input';

const LIMIT = 20;

export function StateHistory({ id, tick }: { id: string; tick: number }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [skip, setSkip] = useState(0);
  const query = { from: fromLocalInput(from), to: fromLocalInput(to), limit: LIMIT, skip };
  const { data: rows, error, loading } = useApi(
    () => api.GET('/node/api/objects/{id}/state-history', { params: { path: { id }, query } }).then(data),
    [id, tick, from, to, skip],
  );
  const range = (set: (v: string) => void) => (e: ChangeEvent<HTMLInputElement>) => {
    set(e.target.value);
    setSkip(0);
  };
  return (
    <section className="panel" aria-labelledby="obj-state-history">
      <h2 id="obj-state-history">State history</h2>
      <div className="row">
        <Field label="History from">
          <input type="datetime-local" step={1} value={from} onChange={range(setFrom)} />
        </Field>
        <Field label="History to">
          <input type="datetime-local" step={1} value={to} onChange={range(setTo)} />
        </Field>
      </div>
      <ErrorBanner error={error} />
      {rows === undefined && loading ? <p className="loading">Loading…</p> : null}
      {rows && rows.length === 0 ? <p className="muted">No state changes{from || to ? ' in this range' : ''}.</p> : null}
      {rows && rows.length > 0 ? (
        <div className="table-wrap">
          <table aria-label="State history">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">State</th>
                <th scope="col">Before</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{formatTime(r.timestamp)}</td>
                  <td>
                    <StateBadge stateId={r.stateId} />
                  </td>
                  <td>
                    <StateBadge stateId={r.previousStateId} />
                  </td>
                  <td>{reasonText(r.reason)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager label="State history" skip={skip} limit={LIMIT} count={rows?.length ?? 0} onSkip={setSkip} />
    </section>
  );
}
