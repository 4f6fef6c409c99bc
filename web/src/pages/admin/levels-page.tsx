// Incident levels (route /admin/levels): list (GET /incident-levels), add (POST), rename and
// recolour (PATCH), delete (DELETE; levels in use, such as the built-in Cleared, are refused
// with 409 and that error is shown).
import { useState } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorBanner } from '../../components/error-banner';
import type { Level } from './admin-types';
import { Swatch } from './color-field';
import { LevelForm } from './level-form';
import './admin.css';

const body = (name: string, color: string) => ({ name, ui: { colors: { main: color } } });

export default function LevelsPage() {
  const list = useApi(async () => data(await api.GET('/node/api/incident-levels')), []);
  const [editing, setEditing] = useState<string>();
  const [deleting, setDeleting] = useState<Level>();

  const columns: Column<Level>[] = [
    { key: 'id', header: 'Id', cell: (l) => l.id },
    { key: 'level', header: 'Level', cell: (l) => <><Swatch color={l.ui.colors.main} />{l.name}</> },
    { key: 'colour', header: 'Colour', cell: (l) => <code>{l.ui.colors.main}</code> },
    {
      key: 'actions',
      header: 'Actions',
      cell: (l) => (
        <div className="adm-actions">
          <button type="button" aria-label={`Edit level ${l.name}`} onClick={() => setEditing(l.id)}>Edit</button>
          <button type="button" className="danger" aria-label={`Delete level ${l.name}`} onClick={() => setDeleting(l)}>Delete</button>
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="adm-levels-title">
      <div className="adm-head">
        <h1 id="adm-levels-title">Incident levels</h1>
      </div>
      <div className="panel">
        <h2>Add a level</h2>
        <LevelForm
          initial={{ name: '', color: '#ff8800' }}
          labels={{ form: 'Add a level', name: 'Level name', color: 'Level colour' }}
          submitLabel="Add level"
          onSubmit={async (name, color) => {
            await api.POST('/node/api/incident-levels', { body: body(name, color) });
            list.reload();
          }}
        />
      </div>
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
      {list.data && list.data.length === 0 ? <p className="muted">No incident levels.</p> : null}
      {list.data && list.data.length > 0 ? (
        <DataTable
          label="Incident levels"
          columns={columns}
          rows={list.data}
          rowKey={(l) => l.id}
          rowCells={(l) => editing === l.id ? (
            <>
              <td>{l.id}</td>
              <td colSpan={3}>
                <LevelForm
                  initial={{ name: l.name, color: l.ui.colors.main }}
                  labels={{ form: `Edit level ${l.name}`, name: `Name of level ${l.id}`, color: `Colour of level ${l.id}` }}
                  submitLabel="Save level"
                  onSubmit={async (name, color) => {
                    await api.PATCH('/node/api/incident-levels/{id}', { params: { path: { id: l.id } }, body: body(name, color) });
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
      {deleting ? (
        <ConfirmDialog
          title={`Delete level ${deleting.name}`}
          message={`Delete the incident level ${deleting.name}? A level still in use is refused.`}
          confirmLabel="Delete level"
          onConfirm={async () => {
            await api.DELETE('/node/api/incident-levels/{id}', { params: { path: { id: deleting.id } } });
            list.reload();
          }}
          onClose={() => setDeleting(undefined)}
        />
      ) : null}
    </section>
  );
}
