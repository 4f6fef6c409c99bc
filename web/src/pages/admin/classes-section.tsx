// Object classes: list (GET /classes, paged here: the API sends them all), add (POST), change
// (PATCH), delete (DELETE; built-in or used classes are refused and the error shown), and
// each class's templates (conditions and properties its objects follow: class-templates.tsx).
import { useState } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorBanner } from '../../components/error-banner';
import { Pager } from '../../components/pager';
import { pageOf } from '../../components/paging';
import { useSession } from '../../auth/session';
import { ClassTemplates } from './class-templates';
import type { ObjectClass } from './admin-types';
import { ClassForm } from './class-form';

const PAGE = 20;
const EMPTY = { name: '', description: '', icon: '' };

export function ClassesSection() {
  const list = useApi(async () => data(await api.GET('/node/api/classes')), []);
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<string>();
  const [deleting, setDeleting] = useState<ObjectClass>();
  const [templates, setTemplates] = useState<string>();
  const session = useSession();
  const shownTemplates = (list.data ?? []).find((c) => c.id === templates);
  const paged = pageOf(list.data ?? [], page, PAGE);

  const columns: Column<(typeof paged.rows)[number]>[] = [
    { key: 'class', header: 'Class', cell: (c) => <>{c.name}{c.builtIn ? <span className="muted"> (built-in)</span> : null}</> },
    { key: 'description', header: 'Description', cell: (c) => c.description || <span className="muted">—</span> },
    { key: 'icon', header: 'Icon', cell: (c) => c.icon || <span className="muted">—</span> },
    {
      key: 'actions',
      header: 'Actions',
      cell: (c) => (
        <div className="adm-actions">
          <button type="button" aria-label={`Edit class ${c.name}`} onClick={() => setEditing(c.id)}>Edit</button>
          <button type="button" aria-label={`Templates of class ${c.name}`} aria-expanded={templates === c.id} onClick={() => setTemplates(templates === c.id ? undefined : c.id)}>
            Templates
          </button>
          <button type="button" className="danger" aria-label={`Delete class ${c.name}`} onClick={() => setDeleting(c)}>Delete</button>
        </div>
      ),
    },
  ];

  return (
    <section className="panel" aria-labelledby="adm-classes-title">
      <h2 id="adm-classes-title">Classes</h2>
      <ClassForm
        initial={EMPTY}
        label="New class"
        submitLabel="Add class"
        onSubmit={async (v) => {
          await api.POST('/node/api/classes', { body: v });
          list.reload();
        }}
      />
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
      {list.data && list.data.length === 0 ? <p className="muted">No classes yet.</p> : null}
      {paged.rows.length > 0 ? (
        <DataTable
          label="Classes"
          columns={columns}
          rows={paged.rows}
          rowKey={(c) => c.id}
          rowCells={(c) => editing === c.id ? (
            <>
              <td colSpan={4}>
                <ClassForm
                  initial={{ name: c.name, description: c.description, icon: c.icon }}
                  label={`Edit class ${c.name}`}
                  submitLabel="Save class"
                  onSubmit={async (v) => {
                    await api.PATCH('/node/api/classes/{id}', { params: { path: { id: c.id } }, body: v });
                    setEditing(undefined);
                    list.reload();
                  }}
                  onCancel={() => setEditing(undefined)}
                />
              </td>
            </>
          ) : undefined}
        />
      ) : null}
      <Pager page={paged.page} hasNext={paged.hasNext} onPage={setPage} label="Classes pages" />
      {shownTemplates ? <ClassTemplates key={shownTemplates.id} cls={shownTemplates} readOnly={!session.can('manage-classes')} /> : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete class ${deleting.name}`}
          message={`Delete the class ${deleting.name}? Only a class no object uses can go.`}
          confirmLabel="Delete class"
          onConfirm={async () => {
            await api.DELETE('/node/api/classes/{id}', { params: { path: { id: deleting.id } } });
            list.reload();
          }}
          onClose={() => setDeleting(undefined)}
        />
      ) : null}
    </section>
  );
}
