// Audit log: who changed this object or link, its properties and its settings (GET
// /objects/{id}/audit-log or /links/{id}/audit-log), newest first, paged, optionally within a
// time range. Each row expands to the record before and after the change.
import { useState } from 'react';
import { api, data } from '../../../api/client';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { formatTime } from '../../../components/format';
import { Pager } from '../../../components/pager';
import { usePagedApi } from '../../../components/paging';
import { fromLocalInput } from '../../../components/time-input';
import { useUserNames } from '../../../components/use-user-names';
import { AuditDiff } from './audit-diff';
import { useEntityRoute } from './entity';

const LIMIT = 25;

export function AuditTab({ id }: { id: string }) {
  const r = useEntityRoute();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const list = usePagedApi(
    (page) => api.GET(r('/node/api/objects/{id}/audit-log'), { params: { path: { id }, query: { from: fromLocalInput(from), to: fromLocalInput(to), ...page } } }).then(data),
    { resetOn: [id, from, to], size: LIMIT },
  );
  const { rows, error, loading } = list;
  const userName = useUserNames(rows.map((e) => e.userId ?? undefined));
  return (
    <section className="panel" aria-labelledby="obj-audit">
      <h2 id="obj-audit">Audit log</h2>
      <div className="row">
        <Field label="Changes from">
          <input type="datetime-local" step={1} value={from} onChange={(e) => setFrom(e.target.value)} />
        </Field>
        <Field label="Changes to">
          <input type="datetime-local" step={1} value={to} onChange={(e) => setTo(e.target.value)} />
        </Field>
        <button type="button" onClick={list.reload} disabled={loading}>
          Refresh
        </button>
      </div>
      <ErrorBanner error={error} />
      {list.data === undefined && loading ? <p className="loading">Loading…</p> : null}
      {list.data && rows.length === 0 ? <p className="muted">No changes recorded{from || to ? ' in this range' : ''}.</p> : null}
      {rows.length > 0 ? (
        <div className="table-wrap">
          <table aria-label="Audit log">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">User</th>
                <th scope="col">Action</th>
                <th scope="col">Resource</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id}>
                  <td>{formatTime(e.timestamp)}</td>
                  <td>{e.userId ? userName(e.userId) : <span className="muted">system</span>}</td>
                  <td>{e.action}</td>
                  <td>
                    {e.resource} <span className="muted">{e.resourceId}</span>
                  </td>
                  <td>
                    <AuditDiff before={e.before} after={e.after} label={`${e.action} ${e.resource} at ${formatTime(e.timestamp)}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager label="Audit log pages" page={list.page} hasNext={list.hasNext} onPage={list.setPage} shown={rows.length} size={LIMIT} busy={loading} />
    </section>
  );
}
