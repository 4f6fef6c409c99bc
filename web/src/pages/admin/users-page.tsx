// Users (route /admin/users): the paged list (GET /users?limit&skip), or with a filter the paged
// search (POST /users/search over login and e-mail); create and edit (rights, object access),
// block / unblock (PATCH status 3 / 2), API tokens, the user's audit log, delete.
import { useState } from 'react';
import { api, data } from '../../api/client';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorBanner } from '../../components/error-banner';
import { DataTable, type Column } from '../../components/data-table';
import { Field } from '../../components/field';
import { formatTime } from '../../components/format';
import { Pager } from '../../components/pager';
import { usePagedApi } from '../../components/paging';
import { useDebounced } from '../../components/use-debounced';
import { STATUS_ACTIVE, STATUS_BLOCKED, type User } from './admin-types';
import { UserAuditDialog } from './user-audit-dialog';
import { UserDialog } from './user-dialog';
import { userSearchFilter } from './user-search';
import { UserTokenDialog } from './user-token-dialog';
import './admin.css';
import './users-table.css';

const PAGE = 25;

type Open = { kind: 'create' } | { kind: 'edit' | 'token' | 'audit' | 'delete'; user: User } | undefined;

function accessText(u: User): string {
  const p = u.objectPermissions;
  if (!p) return 'all objects';
  const exc = p.exclude?.length ?? 0;
  return `${p.include.length} included${exc ? `, ${exc} excluded` : ''}`;
}

export default function UsersPage() {
  const [open, setOpen] = useState<Open>();
  const [error, setError] = useState<unknown>();
  const [text, setText] = useState('');
  const search = useDebounced(text.trim(), 300);
  const list = usePagedApi(
    async (query) =>
      search
        ? data(await api.POST('/node/api/users/search', { params: { query }, body: userSearchFilter(search) }))
        : data(await api.GET('/node/api/users', { params: { query } })),
    { size: PAGE, resetOn: [search] },
  );
  const { rows } = list;

  async function setStatus(u: User, status: typeof STATUS_ACTIVE | typeof STATUS_BLOCKED) {
    setError(undefined);
    try {
      await api.PATCH('/node/api/users/{id}', { params: { path: { id: u.id } }, body: { status } });
      list.reload();
    } catch (err) {
      setError(err);
    }
  }

  const columns: Column<(typeof rows)[number]>[] = [
    { key: 'login', header: 'Login', cell: (u) => u.login },
    { key: 'email', header: 'Email', cell: (u) => u.email || <span className="muted">—</span> },
    {
      key: 'status',
      header: 'Status',
      cell: (u) => {
        const blocked = u.status === STATUS_BLOCKED;
        return <span className={`badge ${blocked ? 'adm-status-blocked' : 'adm-status-active'}`}>{blocked ? 'Blocked' : 'Active'}</span>;
      },
    },
    { key: 'rights', header: 'Rights', cellTitle: (u) => u.permissions.join(', '), cell: (u) => u.permissions.length },
    { key: 'access', header: 'Object access', cell: (u) => accessText(u) },
    { key: 'active', header: 'Active until', cell: (u) => (u.activeTo === null ? <span className="muted">never expires</span> : formatTime(u.activeTo)) },
    {
      key: 'actions',
      header: 'Actions',
      cell: (u) => {
        const blocked = u.status === STATUS_BLOCKED;
        return (
          <div className="adm-actions">
            <button type="button" aria-label={`Edit ${u.login}`} onClick={() => setOpen({ kind: 'edit', user: u })}>Edit</button>
            <button type="button" aria-label={`${blocked ? 'Unblock' : 'Block'} ${u.login}`} onClick={() => void setStatus(u, blocked ? STATUS_ACTIVE : STATUS_BLOCKED)}>
              {blocked ? 'Unblock' : 'Block'}
            </button>
            <button type="button" aria-label={`Token of ${u.login}`} onClick={() => setOpen({ kind: 'token', user: u })}>Token</button>
            <button type="button" aria-label={`Audit log of ${u.login}`} onClick={() => setOpen({ kind: 'audit', user: u })}>Audit log</button>
            <button type="button" className="danger" aria-label={`Delete ${u.login}`} onClick={() => setOpen({ kind: 'delete', user: u })}>Delete</button>
          </div>
        );
      },
    },
  ];
  return (
    <section aria-labelledby="adm-users-title">
      <div className="adm-head">
        <h1 id="adm-users-title">Users</h1>
        <span className="spacer" />
        <button type="button" className="primary" onClick={() => setOpen({ kind: 'create' })}>New user</button>
      </div>
      <form className="adm-search" role="search" aria-label="Filter users" onSubmit={(e) => e.preventDefault()}>
        <Field label="Filter users" hint="part of the login or e-mail">
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} autoComplete="off" />
        </Field>
      </form>
      <ErrorBanner error={error ?? list.error} />
      {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
      {list.data && rows.length === 0 ? <p className="muted">{search ? `No user matches “${search}”.` : 'No users on this page.'}</p> : null}
      {rows.length > 0 ? (
        // Explicit roles: on a narrow screen the cards (display: block) would otherwise lose the
        // table semantics screen readers and the tests rely on.
        <DataTable label="Users" className="usr-table" columns={columns} rows={rows} rowKey={(u) => u.id} labelCells explicitRoles />
      ) : null}
      <Pager label="Users pages" page={list.page} hasNext={list.hasNext} onPage={list.setPage} busy={list.loading} />
      {open?.kind === 'create' ? <UserDialog onClose={() => setOpen(undefined)} onSaved={list.reload} /> : null}
      {open?.kind === 'edit' ? <UserDialog user={open.user} onClose={() => setOpen(undefined)} onSaved={list.reload} /> : null}
      {open?.kind === 'token' ? <UserTokenDialog user={open.user} onClose={() => setOpen(undefined)} /> : null}
      {open?.kind === 'audit' ? <UserAuditDialog user={open.user} onClose={() => setOpen(undefined)} /> : null}
      {open?.kind === 'delete' ? (
        <ConfirmDialog
          title={`Delete user ${open.user.login}`}
          message={`Delete the user ${open.user.login}? Their sessions and token stop working.`}
          confirmLabel="Delete user"
          onConfirm={async () => {
            await api.DELETE('/node/api/users/{id}', { params: { path: { id: open.user.id } } });
            list.reload();
          }}
          onClose={() => setOpen(undefined)}
        />
      ) : null}
    </section>
  );
}
