// Runs of the state triggers (GET /objects/{id}/state-triggers/runs, or the link's), newest
// first and paged: when each fired, by which kind of trigger, whether it got through, and why not.
import { api, data } from '../../../api/client';
import { ErrorBanner } from '../../../components/error-banner';
import { formatTime } from '../../../components/format';
import { Pager } from '../../../components/pager';
import { usePagedApi } from '../../../components/paging';
import { StateBadge } from '../../../components/states';
import { useEntityRoute } from './entity';

const LIMIT = 20;

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
        <div className="table-wrap">
          <table aria-label="Trigger runs">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Type</th>
                <th scope="col">Target</th>
                <th scope="col">State</th>
                <th scope="col">Outcome</th>
                <th scope="col">Error</th>
                <th scope="col">Attempts</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((run) => (
                <tr key={run.id}>
                  <td>{formatTime(run.started)}</td>
                  <td>
                    {run.type} <span className="muted">#{run.triggerIndex}</span>
                  </td>
                  <td className="obj-run-target">{run.target}</td>
                  <td>
                    <StateBadge stateId={run.stateId} />
                  </td>
                  <td className={run.ok ? undefined : 'obj-run-failed'}>
                    {run.ok ? 'sent' : 'failed'}
                    {run.httpStatus !== null ? ` (HTTP ${run.httpStatus})` : ''}
                  </td>
                  <td>{run.error ?? '—'}</td>
                  <td>{run.attempts}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager label="Trigger run pages" page={list.page} hasNext={list.hasNext} onPage={list.setPage} shown={rows.length} size={LIMIT} busy={loading} />
    </section>
  );
}
