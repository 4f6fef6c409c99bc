// Documents of an object or a link: the list (download links, delete), upload of a file and
// adding a URL. Files go as multipart/form-data through rawFetch (openapi-fetch sends JSON);
// the server's refusal (403 without a modify right, 413 over docs.maxBytes) is shown as it is.
import { useRef, useState, type FormEvent } from 'react';
import { rawFetch } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { DataTable, type Column } from '../../../components/data-table';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { formatTime } from '../../../components/format';
import { useAction } from '../../../components/use-action';
import { ConfirmButton } from './confirm-button';
import { useEntity } from './entity';
import type { Doc } from './types';

const sizeText = (n: number | null) => (n === null ? 'link' : n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`);

export function DocsTab({ id }: { id: string }) {
  const base = `/node/api/${useEntity()}/${encodeURIComponent(id)}/docs`;
  const list = useApi(() => rawFetch(base).then((r) => r.json() as Promise<Doc[]>), [base]);
  const [url, setUrl] = useState('');
  const [urlName, setUrlName] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useAction();
  const addUrl = useAction();
  const remove = useAction();

  const sendFile = async (e: FormEvent) => {
    e.preventDefault();
    const file = fileInput.current?.files?.[0];
    if (!file) return upload.fail(new Error('Choose a file first.'));
    const form = new FormData();
    form.append('file', file);
    await upload.run(async () => {
      await rawFetch(base, { method: 'POST', body: form });
      if (fileInput.current) fileInput.current.value = '';
      list.reload();
    });
  };

  const sendUrl = async (e: FormEvent) => {
    e.preventDefault();
    await addUrl.run(async () => {
      const body = JSON.stringify(urlName.trim() ? { url, name: urlName.trim() } : { url });
      await rawFetch(base, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      setUrl('');
      setUrlName('');
      list.reload();
    });
  };

  const columns: Column<Doc>[] = [
    {
      key: 'name',
      header: 'Name',
      // A file downloads (the server sends it as an attachment); a URL opens elsewhere.
      cell: (d) => (d.size === null
        ? <a href={d.value} target="_blank" rel="noopener noreferrer">{d.name}</a>
        : <a href={d.value} download={d.name}>{d.name}</a>),
    },
    { key: 'size', header: 'Size', cell: (d) => sizeText(d.size) },
    { key: 'added', header: 'Added', cell: (d) => formatTime(d.created) },
    {
      key: 'actions',
      header: 'Actions',
      unlabelled: true,
      cellClassName: () => 'obj-actions',
      cell: (d) => (
        <ConfirmButton label="Delete" subject={`document ${d.name}`} disabled={remove.busy} onConfirm={() => void remove.run(async () => {
          await rawFetch(`${base}/${encodeURIComponent(d.id)}`, { method: 'DELETE' });
          list.reload();
        })} />
      ),
    },
  ];

  return (
    <div>
      <form className="panel" onSubmit={sendFile} aria-labelledby="obj-doc-upload">
        <h3 id="obj-doc-upload">Upload a document</h3>
        <div className="row">
          <Field label="File">
            <input type="file" ref={fileInput} required />
          </Field>
          <button type="submit" className="primary" disabled={upload.busy}>
            Upload
          </button>
        </div>
        <ErrorBanner error={upload.error} />
      </form>
      <form className="panel" onSubmit={sendUrl} aria-labelledby="obj-doc-url">
        <h3 id="obj-doc-url">Add a link to a document</h3>
        <div className="row">
          <Field label="Document URL">
            <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://" required />
          </Field>
          <Field label="Document name (optional)">
            <input value={urlName} onChange={(e) => setUrlName(e.target.value)} />
          </Field>
          <button type="submit" className="primary" disabled={addUrl.busy}>
            Add link
          </button>
        </div>
        <ErrorBanner error={addUrl.error} />
      </form>
      <ErrorBanner error={list.error ?? remove.error} />
      {list.data === undefined && list.loading ? <p className="loading">Loading…</p> : null}
      {list.data && list.data.length === 0 ? <p className="muted">No documents.</p> : null}
      {list.data && list.data.length > 0 ? (
        <DataTable label="Documents" className="obj-cards" labelCells columns={columns} rows={list.data} rowKey={(d) => d.id} />
      ) : null}
    </div>
  );
}
