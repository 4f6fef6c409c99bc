// Maintenance windows (route /maintenance): the list (GET /maintenance, a page at a time) with
// whether each runs now, a form to create one, edit in place, delete. Writing needs
// manage-configuration: without it the page is a read-only list.
import { useState } from 'react';
import { api, data } from '../../api/client';
import { useSession } from '../../auth/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorBanner } from '../../components/error-banner';
import { formatTime } from '../../components/format';
import { Pager } from '../../components/pager';
import { usePagedApi } from '../../components/paging';
import { WindowForm, type MaintenanceWindow } from './window-form';
import '../admin/admin.css';

const PAGE = 50;
const DAYS = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function when(w: MaintenanceWindow): string {
  const s = w.schedule;
  if (s.type === 'once') return `${formatTime(s.from)} – ${formatTime(s.to)}`;
  const at = `${s.start} for ${s.durationMinutes} min (${w.timeZone})`;
  if (s.type === 'daily') return `Daily at ${at}`;
  if (s.type === 'weekly') return `Weekly on ${(s.days ?? []).map((d) => DAYS[d]).join(', ')} at ${at}`;
  return `Monthly on day ${s.day} at ${at}`;
}

function scopeText(w: MaintenanceWindow): string {
  const parts = [];
  if (w.scope.objects.length > 0) parts.push(`${w.scope.objects.length} object${w.scope.objects.length === 1 ? '' : 's'}${w.scope.subtree ? ' with subtrees' : ''}`);
  if (w.scope.tags.length > 0) parts.push(`${w.scope.tags.length} tag${w.scope.tags.length === 1 ? '' : 's'}`);
  return parts.join(', ') || '—';
}

export default function MaintenancePage() {
  const session = useSession();
  const canWrite = session.can('manage-configuration');
  const list = usePagedApi(async (page) => data(await api.GET('/node/api/maintenance', { params: { query: page } })), { size: PAGE });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string>();
  const [deleting, setDeleting] = useState<MaintenanceWindow>();

  const columns: Column<MaintenanceWindow>[] = [
    { key: 'name', header: 'Name', cell: (w) => w.name },
    { key: 'status', header: 'Status', cell: (w) => !w.enabled ? <span className="muted">disabled</span>
      : w.active ? <span className="badge maint-badge">running until {formatTime(w.currentEnd)}</span>
      : w.nextStart !== undefined ? <>next {formatTime(w.nextStart)}</> : <span className="muted">over</span> },
    { key: 'when', header: 'When', cell: when },
    { key: 'scope', header: 'Scope', cell: scopeText },
    { key: 'data', header: 'Data', cell: (w) => (w.collectData ? 'collected' : 'dropped') },
    ...(canWrite ? [{
      key: 'actions',
      header: 'Actions',
      cell: (w: MaintenanceWindow) => (
        <div className="adm-actions">
          <button type="button" aria-label={`Edit window ${w.name}`} onClick={() => setEditing(w.id)}>Edit</button>
          <button type="button" className="danger" aria-label={`Delete window ${w.name}`} onClick={() => setDeleting(w)}>Delete</button>
        </div>
      ),
    }] : []),
  ];

  return (
    <section aria-labelledby="maint-title">
      <div className="adm-head">
        <h1 id="maint-title">Maintenance</h1>
        {canWrite && !creating ? <button type="button" className="primary" onClick={() => setCreating(true)}>New window</button> : null}
      </div>
      <p className="muted">
        While a window runs, incidents of its objects (their subtrees, tagged entities, and links among them) are raised suppressed and notify once it ends
        if still active; state triggers wait for its end; with data not collected, measurements are dropped.
      </p>
      {creating ? (
        <div className="panel">
          <h2>New window</h2>
          <WindowForm onSaved={() => { setCreating(false); list.reload(); }} onCancel={() => setCreating(false)} />
        </div>
      ) : null}
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
      {list.data && list.rows.length === 0 ? <p className="muted">No maintenance windows.</p> : null}
      {list.rows.length > 0 ? (
        <DataTable
          label="Maintenance windows"
          columns={columns}
          rows={list.rows}
          rowKey={(w) => w.id}
          rowCells={(w) => editing === w.id ? (
            <td colSpan={columns.length}>
              <WindowForm initial={w} onSaved={() => { setEditing(undefined); list.reload(); }} onCancel={() => setEditing(undefined)} />
            </td>
          ) : undefined}
        />
      ) : null}
      <Pager label="Maintenance pages" page={list.page} hasNext={list.hasNext} onPage={list.setPage} shown={list.rows.length} size={PAGE} busy={list.loading} />
      {deleting ? (
        <ConfirmDialog
          title={`Delete window ${deleting.name}`}
          message={`Delete the maintenance window ${deleting.name}? Incidents it suppresses notify at once if still active.`}
          confirmLabel="Delete window"
          onConfirm={async () => {
            await api.DELETE('/node/api/maintenance/{id}', { params: { path: { id: deleting.id } } });
            list.reload();
          }}
          onClose={() => setDeleting(undefined)}
        />
      ) : null}
    </section>
  );
}
