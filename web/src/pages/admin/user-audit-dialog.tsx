// A user's audit log (GET /users/{id}/audit-log): the configuration changes they made, newest
// first, paged, with what each change replaced and what it left. The server records catalog
// changes (objects, links, properties, tags, classes, states, entity settings) under the user who
// made them.
import { Link } from 'wouter';
import { api, data } from '../../api/client';
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

function ValueCell({ value, label }: { value: unknown; label: string }) {
  const text = shown(value);
  if (text === '—') return <td className="muted">—</td>;
  return (
    <td>
      <pre className="adm-json" tabIndex={0} aria-label={label}>{text}</pre>
    </td>
  );
}

export function UserAuditDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const list = usePagedApi(
    async (query) => data(await api.GET('/node/api/users/{id}/audit-log', { params: { path: { id: user.id }, query } })),
    { size: PAGE, resetOn: [user.id] },
  );
  return (
    <Dialog title={`Audit log of ${user.login}`} open onClose={onClose}>
      <div className="adm-audit">
        <ErrorBanner error={list.error} />
        {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
        {list.data && list.rows.length === 0 ? <p className="muted">No configuration changes by {user.login}{list.page > 0 ? ' on this page' : ''}.</p> : null}
        {list.rows.length > 0 ? (
          <div className="table-wrap">
            <table aria-label={`Changes by ${user.login}`}>
              <thead>
                <tr>
                  <th>Time</th>
                  <th>Actor</th>
                  <th>Action</th>
                  <th>Resource</th>
                  <th>Before</th>
                  <th>After</th>
                </tr>
              </thead>
              <tbody>
                {list.rows.map((r: AuditRecord) => (
                  <tr key={r.id}>
                    <td className="adm-nowrap">{formatTime(r.timestamp)}</td>
                    <td>{r.userId === user.id ? user.login : r.userId ?? 'system'}</td>
                    <td>{r.action}</td>
                    <td>
                      {r.resource} {r.resourceId}
                      {/* Only an object has a page of its own; a link's id is shown as text. */}
                      {r.entityId && r.resource === 'object' ? (
                        <>
                          {' '}
                          <Link href={`/objects/${r.entityId}`} onClick={onClose}>entity {r.entityId}</Link>
                        </>
                      ) : r.entityId && r.entityId !== r.resourceId ? ` of entity ${r.entityId}` : null}
                    </td>
                    <ValueCell value={r.before} label={`Before change ${r.id}`} />
                    <ValueCell value={r.after} label={`After change ${r.id}`} />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <Pager label="Audit log pages" page={list.page} hasNext={list.hasNext} onPage={list.setPage} busy={list.loading} />
      </div>
    </Dialog>
  );
}
