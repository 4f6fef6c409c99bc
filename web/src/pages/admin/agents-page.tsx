// Remote agents (route /admin/agents): GET /agents every 5 s with each agent's owner (login
// looked up by userId), version, address, status, last check-in and checks; delete (DELETE).
import { useEffect, useState } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorBanner } from '../../components/error-banner';
import { DataTable, type Column } from '../../components/data-table';
import { formatTime } from '../../components/format';
import { useUserNames } from '../../components/use-user-names';
import type { Agent } from './admin-types';
import './admin.css';

const REFRESH_MS = 5000;

/** "12 s ago", "5 min ago", "3 h ago", "2 d ago". */
export function ago(ms: number, now: number): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

export default function AgentsPage() {
  const list = useApi(async () => data(await api.GET('/node/api/agents')), []);
  const [deleting, setDeleting] = useState<Agent>();
  const { reload } = list;
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const ownerName = useUserNames(list.data?.map((a) => a.userId) ?? []);
  const now = Date.now();

  const columns: Column<Agent>[] = [
    { key: 'agent', header: 'Agent', cell: (a) => a.name },
    { key: 'status', header: 'Status', cell: (a) => <span className={`badge adm-status-${a.status}`}>{a.status}</span> },
    { key: 'owner', header: 'Owner', cell: (a) => ownerName(a.userId) },
    { key: 'version', header: 'Version', cell: (a) => a.version || <span className="muted">—</span> },
    { key: 'address', header: 'Address', cell: (a) => a.address || <span className="muted">—</span> },
    {
      key: 'seen',
      header: 'Last seen',
      cell: (a) => (
        <>
          <span className="adm-nowrap">{ago(a.lastSeen, now)}</span>
          <br />
          <small className="muted adm-nowrap">{formatTime(a.lastSeen)}</small>
        </>
      ),
    },
    { key: 'checks', header: 'Checks', cell: (a) => a.checks },
    { key: 'actions', header: 'Actions', cell: (a) => <button type="button" className="danger" aria-label={`Delete agent ${a.name}`} onClick={() => setDeleting(a)}>Delete</button> },
  ];
  return (
    <section aria-labelledby="adm-agents-title">
      <div className="adm-head">
        <h1 id="adm-agents-title">Remote agents</h1>
        <span className="spacer" />
        <span className="muted">refreshed every 5 s</span>
        <button type="button" onClick={reload}>Refresh</button>
      </div>
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
      {list.data && list.data.length === 0 ? <p className="muted">No remote agents have registered. An agent registers when it starts (npm run agent).</p> : null}
      {list.data && list.data.length > 0 ? (
        <DataTable label="Remote agents" columns={columns} rows={list.data} rowKey={(a) => a.id} />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete agent ${deleting.name}`}
          message={`Forget the agent ${deleting.name}? If it is still running it registers again at its next start.`}
          confirmLabel="Delete agent"
          onConfirm={async () => {
            await api.DELETE('/node/api/agents/{id}', { params: { path: { id: deleting.id } } });
            reload();
          }}
          onClose={() => setDeleting(undefined)}
        />
      ) : null}
    </section>
  );
}
