// Trigger runs (route /admin/trigger-runs, right manage-configuration): every fire of every
// state trigger (GET /trigger-runs), newest first, filtered by start time and outcome, paged.
// Each run says when, for which entity, what trigger (webhook URL or recipients), the state
// change that fired it, how it ended, why it failed and after how many attempts. Notification
// sends (notification channels and policies) are listed too: what they were about (raised,
// repeat, escalation...), the incident and how many incidents the message stood for.
import { useState } from 'react';
import { Link } from 'wouter';
import { api, data } from '../../api/client';
import { useSession } from '../../auth/session';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorBanner } from '../../components/error-banner';
import { formatTime } from '../../components/format';
import { Pager } from '../../components/pager';
import { usePagedApi } from '../../components/paging';
import { StateBadge } from '../../components/states';
import type { TriggerRun } from './operations-types';
import { noRunFilters, runsQuery, TriggerRunFilters } from './trigger-run-filters';
import './operations.css';

const ENTITY_OBJECT = 1;

function EntityCell({ run }: { run: TriggerRun }) {
  if (run.notification === 'test') return <span className="muted">test message</span>;
  // Only objects have a page of their own in the UI; a link is named as text.
  if (run.entityType === ENTITY_OBJECT) return <Link href={`/objects/${run.entityId}`}>{run.entityName}</Link>;
  return <span>{run.entityName} <span className="muted">(link {run.entityId})</span></span>;
}

function Outcome({ run }: { run: TriggerRun }) {
  const status = run.httpStatus !== null ? ` (HTTP ${run.httpStatus})` : '';
  return <span className={`badge ${run.ok ? 'ops-ok' : 'ops-bad'}`}>{run.ok ? 'succeeded' : 'failed'}{status}</span>;
}

const COLUMNS: Column<TriggerRun>[] = [
  { key: 'started', header: 'Started', cellClassName: () => 'ops-nowrap', cell: (r) => formatTime(r.started) },
  { key: 'entity', header: 'Entity', cell: (r) => <EntityCell run={r} /> },
  {
    key: 'trigger',
    header: 'Trigger',
    cell: (r) => (
      <>
        {r.notification ? `${r.type} notification: ${r.notification}${(r.incidentCount ?? 1) > 1 ? ` (${r.incidentCount} incidents)` : ''}` : `${r.type} #${r.triggerIndex + 1}`}
        <div className="muted ops-error">{r.target}</div>
      </>
    ),
  },
  {
    key: 'change',
    header: 'State change',
    cellClassName: () => 'ops-nowrap',
    cell: (r) => (r.notification ? (r.incidentId ? <>incident {r.incidentId}</> : <span className="muted">—</span>) : <><StateBadge stateId={r.previousStateId} /> → <StateBadge stateId={r.stateId} /></>),
  },
  { key: 'outcome', header: 'Outcome', cell: (r) => <Outcome run={r} /> },
  { key: 'error', header: 'Error', cellClassName: () => 'ops-error', cell: (r) => r.error ?? <span className="muted">—</span> },
  { key: 'attempts', header: 'Attempts', className: 'ops-num', cell: (r) => r.attempts },
];

export default function TriggerRunsPage() {
  const session = useSession();
  const [filters, setFilters] = useState(noRunFilters);
  const query = runsQuery(filters);
  const key = JSON.stringify(query);
  const list = usePagedApi(
    async (paging) => data(await api.GET('/node/api/trigger-runs', { params: { query: { ...query, ...paging } } })),
    { size: 25, resetOn: [key] },
  );
  return (
    <section aria-labelledby="ops-runs-title">
      <div className="ops-head">
        <h1 id="ops-runs-title">Trigger runs</h1>
        <span className="spacer" />
        <button type="button" onClick={list.reload} disabled={list.loading}>Refresh</button>
      </div>
      {!session.can('manage-configuration') ? <p className="muted">Trigger runs need the right manage-configuration.</p> : null}
      <TriggerRunFilters value={filters} onChange={setFilters} />
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
      {list.data && list.rows.length === 0 ? <p className="muted">No trigger runs{list.page > 0 ? ' on this page' : ' match'}.</p> : null}
      {list.rows.length > 0 ? (
        <DataTable label="Trigger runs" columns={COLUMNS} rows={list.rows} rowKey={(r) => r.id} />
      ) : null}
      <Pager label="Trigger runs pages" page={list.page} hasNext={list.hasNext} onPage={list.setPage} busy={list.loading} />
    </section>
  );
}
