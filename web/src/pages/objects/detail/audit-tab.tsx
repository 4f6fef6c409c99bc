// Audit log: who changed this object or link, its properties and its settings (GET
// /objects/{id}/audit-log or /links/{id}/audit-log), newest first, paged, optionally within a
// time range. Each row expands to the record before and after the change.
import { useState } from 'react';
import { api, data } from '../../../api/client';
import { DataTable, type Column } from '../../../components/data-table';
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
  const columns: Column<(typeof rows)[number]>[] = [
    { key: 'time', header: 'Time', cell: (e) => formatTime(e.timestamp) },
    { key: 'user', header: 'User', cell: (e) => (e.userId ? userName(e.userId) : <span className="muted">system</span>) },
    { key: 'action', header: 'Action', cell: (e) => e.action },
    { key: 'resource', header: 'Resource', cell: (e) => <>{e.resource} <span className="muted">{e.resourceId}</span></> },
    { key: 'change', header: 'Change', cell: (e) => <AuditDiff before={e.before} after={e.after} label={`${e.action} ${e.resource} at ${formatTime(e.timestamp)}`} /> },
  ];
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
        <DataTable label="Audit log" columns={columns} rows={rows} rowKey={(e) => e.id} />
      ) : null}
      <Pager label="Audit log pages" page={list.page} hasNext={list.hasNext} onPage={list.setPage} shown={rows.length} size={LIMIT} busy={loading} />
    </section>
  );
}
