// Tags: list (GET /tags, paged here: the API sends them all), add (POST), rename (PATCH),
// delete (DELETE; every entity loses the tag).
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { Pager } from '../../components/pager';
import { pageOf } from '../../components/paging';
import { useAction } from '../../components/use-action';
import type { Tag } from './admin-types';

const PAGE = 20;

const without = (set: ReadonlySet<string>, id: string) => new Set([...set].filter((x) => x !== id));

export function TagsSection() {
  const list = useApi(async () => data(await api.GET('/node/api/tags')), []);
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(0);
  const [name, setName] = useState('');
  const [deleting, setDeleting] = useState<Tag>();
  // Tags being renamed in place (several at once, each row its own form).
  const [editing, setEditing] = useState<ReadonlySet<string>>(() => new Set());
  const add = useAction();

  const shown = (list.data ?? []).filter((t) => t.name.toLowerCase().includes(filter.trim().toLowerCase()));
  const paged = pageOf(shown, page, PAGE);

  async function create(e: FormEvent) {
    e.preventDefault();
    if (await add.run(() => api.POST('/node/api/tags', { body: { name: name.trim() } }))) {
      setName('');
      list.reload();
    }
  }

  const columns: Column<Tag>[] = [
    { key: 'tag', header: 'Tag', cell: (t) => t.name },
    {
      key: 'actions',
      header: 'Actions',
      cell: (t) => (
        <div className="adm-actions">
          <button type="button" aria-label={`Rename tag ${t.name}`} onClick={() => setEditing((s) => new Set(s).add(t.id))}>Rename</button>
          <button type="button" className="danger" aria-label={`Delete tag ${t.name}`} onClick={() => setDeleting(t)}>Delete</button>
        </div>
      ),
    },
  ];

  return (
    <section className="panel" aria-labelledby="adm-tags-title">
      <h2 id="adm-tags-title">Tags</h2>
      <form onSubmit={create} className="adm-inline-form" aria-label="Add a tag">
        <Field label="New tag name">
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </Field>
        <button type="submit" className="primary" disabled={add.busy}>Add tag</button>
        <span className="spacer" />
        <Field label="Filter tags">
          <input type="search" value={filter} onChange={(e) => { setFilter(e.target.value); setPage(0); }} />
        </Field>
      </form>
      <ErrorBanner error={add.error ?? list.error} />
      {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
      {list.data && shown.length === 0 ? <p className="muted">{filter ? 'No tag matches.' : 'No tags yet.'}</p> : null}
      {paged.rows.length > 0 ? (
        <DataTable
          label="Tags"
          columns={columns}
          rows={paged.rows}
          rowKey={(t) => t.id}
          rowCells={(t) => editing.has(t.id) ? (
            <td colSpan={2}>
              <RenameTagForm tag={t} onDone={() => setEditing((s) => without(s, t.id))} onChanged={list.reload} />
            </td>
          ) : undefined}
        />
      ) : null}
      <Pager page={paged.page} hasNext={paged.hasNext} onPage={setPage} label="Tags pages" />
      {deleting ? (
        <ConfirmDialog
          title={`Delete tag ${deleting.name}`}
          message={`Delete the tag ${deleting.name}? Every object, link and entity loses it.`}
          confirmLabel="Delete tag"
          onConfirm={async () => {
            await api.DELETE('/node/api/tags/{id}', { params: { path: { id: deleting.id } } });
            list.reload();
          }}
          onClose={() => setDeleting(undefined)}
        />
      ) : null}
    </section>
  );
}

/** A tag's row while it is renamed: the new name, Save and Cancel. */
function RenameTagForm({ tag, onDone, onChanged }: { tag: Tag; onDone: () => void; onChanged: () => void }) {
  const [name, setName] = useState(tag.name);
  const save = useAction();

  async function rename(e: FormEvent) {
    e.preventDefault();
    if (await save.run(() => api.PATCH('/node/api/tags/{id}', { params: { path: { id: tag.id } }, body: { name: name.trim() } }))) {
      onDone();
      onChanged();
    }
  }

  return (
    <>
      <form onSubmit={rename} className="adm-inline-form" aria-label={`Rename tag ${tag.name}`}>
        <Field label={`New name for tag ${tag.name}`}>
          <input value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
        </Field>
        <button type="submit" className="primary" disabled={save.busy}>Save tag</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </form>
      <ErrorBanner error={save.error} />
    </>
  );
}
