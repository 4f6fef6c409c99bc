// Entity states: list (GET /states: id, name, priority, colour), add (POST /states), change
// (PATCH /states/{id}). States cannot be deleted through the API. After a change the app's own
// copy of the states is read again, so badges and maps elsewhere take the new names and colours.
import { useState } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorBanner } from '../../components/error-banner';
import { useReloadStates } from '../../components/states';
import { Swatch } from './color-field';
import { StateForm } from './state-form';

const EMPTY = { id: '', name: '', priority: '0', color: '#607d8b' };

export function StatesSection() {
  const list = useApi(async () => data(await api.GET('/node/api/states')), []);
  const [editing, setEditing] = useState<number>();
  const reloadStates = useReloadStates();
  const changed = () => {
    list.reload();
    reloadStates();
  };
  const states = [...(list.data ?? [])].sort((a, b) => a.id - b.id);

  const columns: Column<(typeof states)[number]>[] = [
    { key: 'id', header: 'Id', cell: (s) => s.id },
    { key: 'state', header: 'State', cell: (s) => <>{s.name}{s.builtIn ? <span className="muted"> (built-in)</span> : null}</> },
    { key: 'priority', header: 'Priority', cell: (s) => s.priority },
    { key: 'colour', header: 'Colour', cell: (s) => <><Swatch color={s.ui.colors.main} /><code>{s.ui.colors.main}</code></> },
    { key: 'actions', header: 'Actions', cell: (s) => <button type="button" aria-label={`Edit state ${s.name}`} onClick={() => setEditing(s.id)}>Edit</button> },
  ];

  return (
    <section className="panel" aria-labelledby="adm-states-title">
      <h2 id="adm-states-title">States</h2>
      <StateForm
        initial={EMPTY}
        label="New state"
        withId
        submitLabel="Add state"
        onSubmit={async ({ color, ...rest }) => {
          await api.POST('/node/api/states', { body: { ...rest, ui: { colors: { main: color } } } });
          changed();
        }}
      />
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
      {list.data && states.length === 0 ? <p className="muted">No states.</p> : null}
      {states.length > 0 ? (
        <DataTable
          label="States"
          columns={columns}
          rows={states}
          rowKey={(s) => String(s.id)}
          rowCells={(s) => editing === s.id ? (
            <>
              <td>{s.id}</td>
              <td colSpan={4}>
                <StateForm
                  initial={{ id: String(s.id), name: s.name, priority: String(s.priority), color: s.ui.colors.main }}
                  label={`Edit state ${s.name}`}
                  withId={false}
                  submitLabel="Save state"
                  onSubmit={async ({ name, priority, color }) => {
                    await api.PATCH('/node/api/states/{id}', { params: { path: { id: s.id } }, body: { name, priority, ui: { colors: { main: color } } } });
                    setEditing(undefined);
                    changed();
                  }}
                  onCancel={() => setEditing(undefined)}
                />
              </td>
            </>
          ) : undefined}
        />
      ) : null}
    </section>
  );
}
