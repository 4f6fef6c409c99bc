// Tags: list (GET /tags, paged here: the API sends them all), add (POST), rename (PATCH),
// delete (DELETE; every entity loses the tag).
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { Pager } from '../../components/pager';
import { pageOf } from '../../components/paging';
import { useAction } from '../../components/use-action';
import type { Tag } from './admin-types';

const PAGE = 20;

export function TagsSection() {
  const list = useApi(async () => data(await api.GET('/node/api/tags')), []);
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(0);
  const [name, setName] = useState('');
  const [deleting, setDeleting] = useState<Tag>();
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
        <div className="table-wrap">
          <table aria-label="Tags">
            <thead>
              <tr><th>Tag</th><th>Actions</th></tr>
            </thead>
            <tbody>
              {paged.rows.map((t) => (
                <TagRow key={t.id} tag={t} onChanged={list.reload} onDelete={() => setDeleting(t)} />
              ))}
            </tbody>
          </table>
        </div>
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

function TagRow({ tag, onChanged, onDelete }: { tag: Tag; onChanged: () => void; onDelete: () => void }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(tag.name);
  const save = useAction();

  async function rename(e: FormEvent) {
    e.preventDefault();
    if (await save.run(() => api.PATCH('/node/api/tags/{id}', { params: { path: { id: tag.id } }, body: { name: name.trim() } }))) {
      setEditing(false);
      onChanged();
    }
  }

  if (editing) {
    return (
      <tr>
        <td colSpan={2}>
          <form onSubmit={rename} className="adm-inline-form" aria-label={`Rename tag ${tag.name}`}>
            <Field label={`New name for tag ${tag.name}`}>
              <input value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
            </Field>
            <button type="submit" className="primary" disabled={save.busy}>Save tag</button>
            <button type="button" onClick={() => { setEditing(false); setName(tag.name); save.clear(); }}>Cancel</button>
          </form>
          <ErrorBanner error={save.error} />
        </td>
      </tr>
    );
  }
  return (
    <tr>
      <td>{tag.name}</td>
      <td>
        <div className="adm-actions">
          <button type="button" aria-label={`Rename tag ${tag.name}`} onClick={() => setEditing(true)}>Rename</button>
          <button type="button" className="danger" aria-label={`Delete tag ${tag.name}`} onClick={onDelete}>Delete</button>
        </div>
      </td>
    </tr>
  );
}
