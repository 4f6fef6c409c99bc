// A user's audit log (GET /users/{id}/audit-log): the configuration changes they made, newest
// first, paged, with what each change replaced and what it left. The server records catalog
// changes (objects, links, properties, tags, classes, states, entity settings) under the user who
// made them.
import { Link } from 'wouter';
import { api, data } from '../../api/client';
import { DataTable, type Column } from '../../components/data-table';
import { Dialog } from '../../components/dialog';
import { ErrorBanner } from '../../components/error-banner';
import { formatTime } from '../../components/format';
import { Pager } from '../../components/pager';
import { usePagedApi } from '../../components/paging';
import type { AuditRecord, User } from './admin-types';

const PAGE = 20;

/** A value as compact JSON, or a dash for nothing. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return JSON.stringify(value, null, 1);
}

/** A value's cell: its JSON, focusable so a long one scrolls by keyboard; a dash for nothing. */
function valueColumn(key: string, header: string, value: (r: AuditRecord) => unknown): Column<AuditRecord> {
  return {
    key,
    header,
    cell: (r) => (shown(value(r)) === '—' ? '—' : <pre className="adm-json" tabIndex={0} aria-label={`${header} change ${r.id}`}>{shown(value(r))}</pre>),
    cellClassName: (r) => (shown(value(r)) === '—' ? 'muted' : undefined),
  };
}

export function UserAuditDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const list = usePagedApi(
    async (query) => data(await api.GET('/node/api/users/{id}/audit-log', { params: { path: { id: user.id }, query } })),
    { size: PAGE, resetOn: [user.id] },
  );
  const columns: Column<AuditRecord>[] = [
    { key: 'time', header: 'Time', cell: (r) => formatTime(r.timestamp), cellClassName: () => 'adm-nowrap' },
    { key: 'actor', header: 'Actor', cell: (r) => (r.userId === user.id ? user.login : r.userId ?? 'system') },
    { key: 'action', header: 'Action', cell: (r) => r.action },
    {
      key: 'resource',
      header: 'Resource',
      cell: (r) => (
        <>
          {r.resource} {r.resourceId}
          {/* Only an object has a page of its own; a link's id is shown as text. */}
          {r.entityId && r.resource === 'object' ? (
            <>
              {' '}
              <Link href={`/objects/${r.entityId}`} onClick={onClose}>entity {r.entityId}</Link>
            </>
          ) : r.entityId && r.entityId !== r.resourceId ? ` of entity ${r.entityId}` : null}
        </>
      ),
    },
    valueColumn('before', 'Before', (r) => r.before),
    valueColumn('after', 'After', (r) => r.after),
  ];
  return (
    <Dialog title={`Audit log of ${user.login}`} open onClose={onClose}>
      <div className="adm-audit">
        <ErrorBanner error={list.error} />
        {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
        {list.data && list.rows.length === 0 ? <p className="muted">No configuration changes by {user.login}{list.page > 0 ? ' on this page' : ''}.</p> : null}
        {list.rows.length > 0 ? (
          <DataTable label={`Changes by ${user.login}`} columns={columns} rows={list.rows} rowKey={(r) => r.id} />
        ) : null}
        <Pager label="Audit log pages" page={list.page} hasNext={list.hasNext} onPage={list.setPage} busy={list.loading} />
      </div>
    </Dialog>
  );
}
