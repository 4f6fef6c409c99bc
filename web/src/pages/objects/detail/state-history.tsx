// The object's state changes, newest first, paged through the API, optionally within a range.
import { useState } from 'react';
import { api, data } from '../../../api/client';
import { DataTable, type Column } from '../../../components/data-table';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { formatTime } from '../../../components/format';
import { Pager } from '../../../components/pager';
import { usePagedApi } from '../../../components/paging';
import { StateBadge } from '../../../components/states';
import { fromLocalInput } from '../../../components/time-input';
import { reasonText } from './state-reason';
import { useEntityRoute } from './entity';

const LIMIT = 20;

export function StateHistory({ id, tick }: { id: string; tick: number }) {
  const r = useEntityRoute();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  // A new range starts at its first page; a live state change (tick) reloads the page shown.
  const list = usePagedApi(
    (page) => api.GET(r('/node/api/objects/{id}/state-history'), { params: { path: { id }, query: { from: fromLocalInput(from), to: fromLocalInput(to), ...page } } }).then(data),
    { deps: [tick], resetOn: [id, from, to], size: LIMIT },
  );
  const { rows, error, loading } = list;
  const columns: Column<(typeof rows)[number]>[] = [
    { key: 'time', header: 'Time', cell: (h) => formatTime(h.timestamp) },
    { key: 'state', header: 'State', cell: (h) => <StateBadge stateId={h.stateId} /> },
    { key: 'before', header: 'Before', cell: (h) => <StateBadge stateId={h.previousStateId} /> },
    { key: 'reason', header: 'Reason', cell: (h) => reasonText(h.reason) },
  ];
  return (
    <section className="panel" aria-labelledby="obj-state-history">
      <h2 id="obj-state-history">State history</h2>
      <div className="row">
        <Field label="History from">
          <input type="datetime-local" step={1} value={from} onChange={(e) => setFrom(e.target.value)} />
        </Field>
        <Field label="History to">
          <input type="datetime-local" step={1} value={to} onChange={(e) => setTo(e.target.value)} />
        </Field>
      </div>
      <ErrorBanner error={error} />
      {list.data === undefined && loading ? <p className="loading">Loading…</p> : null}
      {list.data && rows.length === 0 ? <p className="muted">No state changes{from || to ? ' in this range' : ''}.</p> : null}
      {rows.length > 0 ? (
        <DataTable label="State history" columns={columns} rows={rows} rowKey={(h) => h.id} />
      ) : null}
      <Pager label="State history pages" page={list.page} hasNext={list.hasNext} onPage={list.setPage} shown={rows.length} size={LIMIT} />
    </section>
  );
}
