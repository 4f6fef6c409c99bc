// Runs of the state triggers (GET /objects/{id}/state-triggers/runs, or the link's), newest
// first and paged: when each fired, by which kind of trigger, whether it got through, and why not.
import { api, data, type paths } from '../../../api/client';
import type { Json } from '../../../api/types';
import { DataTable, type Column } from '../../../components/data-table';
import { ErrorBanner } from '../../../components/error-banner';
import { formatTime } from '../../../components/format';
import { Pager } from '../../../components/pager';
import { usePagedApi } from '../../../components/paging';
import { StateBadge } from '../../../components/states';
import { useEntityRoute } from './entity';

const LIMIT = 20;

type Run = Json<paths['/node/api/objects/{id}/state-triggers/runs']['get']['responses'][200]>[number];

const COLUMNS: Column<Run>[] = [
  { key: 'time', header: 'Time', cell: (run) => formatTime(run.started) },
  { key: 'type', header: 'Type', cell: (run) => <>{run.type} <span className="muted">#{run.triggerIndex}</span></> },
  { key: 'target', header: 'Target', cellClassName: () => 'obj-run-target', cell: (run) => run.target },
  { key: 'state', header: 'State', cell: (run) => <StateBadge stateId={run.stateId} /> },
  {
    key: 'outcome',
    header: 'Outcome',
    cellClassName: (run) => (run.ok ? undefined : 'obj-run-failed'),
    cell: (run) => <>{run.ok ? 'sent' : 'failed'}{run.httpStatus !== null ? ` (HTTP ${run.httpStatus})` : ''}</>,
  },
  { key: 'error', header: 'Error', cell: (run) => run.error ?? '—' },
  { key: 'attempts', header: 'Attempts', cell: (run) => run.attempts },
];

export function TriggerRuns({ id }: { id: string }) {
  const r = useEntityRoute();
  const list = usePagedApi((page) => api.GET(r('/node/api/objects/{id}/state-triggers/runs'), { params: { path: { id }, query: page } }).then(data), {
    resetOn: [id],
    size: LIMIT,
  });
  const { rows, error, loading } = list;
  return (
    <section className="panel" aria-labelledby="obj-trigger-runs">
      <div className="row">
        <h2 id="obj-trigger-runs">Trigger runs</h2>
        <span className="spacer" />
        <button type="button" onClick={list.reload} disabled={loading}>
          Refresh runs
        </button>
      </div>
      <p className="muted obj-help">Every fire of a state trigger, kept 30 days.</p>
      <ErrorBanner error={error} />
      {list.data === undefined && loading ? <p className="loading">Loading…</p> : null}
      {list.data && rows.length === 0 ? <p className="muted">No trigger has fired yet.</p> : null}
      {rows.length > 0 ? (
        <DataTable label="Trigger runs" columns={COLUMNS} rows={rows} rowKey={(run) => run.id} />
      ) : null}
      <Pager label="Trigger run pages" page={list.page} hasNext={list.hasNext} onPage={list.setPage} shown={rows.length} size={LIMIT} busy={loading} />
    </section>
  );
}
