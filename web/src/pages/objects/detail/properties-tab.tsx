// Properties: the list (GET /props answers them all; shown a page at a time), add, edit, delete;
// then the ones inherited from the entity's class (GET /props?effective=true), read-only here
// (they are changed on the class; a property of the same name added here overrides one).
import { useState } from 'react';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { DataTable, type Column } from '../../../components/data-table';
import { ErrorBanner } from '../../../components/error-banner';
import { Pager } from '../../../components/pager';
import { pageOf } from '../../../components/paging';
import { AddPropertyForm } from './add-property-form';
import { PropertyCells } from './property-row';
import type { Property } from './types';
import { useEntityRoute } from './entity';

const LIMIT = 50;

// The headers; PropertyCells draws each row (edited in place, its own pending action).
const COLUMNS: Column<Property>[] = ['Name', 'Value', 'Type', 'Updated', 'Actions'].map((h) => ({ key: h, header: h }));

export function PropertiesTab({ id }: { id: string }) {
  const r = useEntityRoute();
  const { data: props, error, loading, reload } = useApi(() => api.GET(r('/node/api/objects/{id}/props'), { params: { path: { id } } }).then(data), [id]);
  const [pageNo, setPage] = useState(0);
  const page = pageOf(props ?? [], pageNo, LIMIT);
  return (
    <div>
      <AddPropertyForm id={id} onAdded={reload} />
      <ErrorBanner error={error} />
      {props === undefined && loading ? <p className="loading">Loading…</p> : null}
      {props && props.length === 0 ? <p className="muted">No properties.</p> : null}
      {page.rows.length > 0 ? (
        <DataTable
          label="Properties"
          className="obj-cards"
          columns={COLUMNS}
          rows={page.rows}
          rowKey={(p) => `${p.id}-${p.updated}`}
          rowCells={(p) => <PropertyCells id={id} p={p} onChanged={reload} />}
        />
      ) : null}
      <Pager label="Properties pages" page={page.page} hasNext={page.hasNext} onPage={setPage} shown={page.rows.length} size={LIMIT} />
      <InheritedProperties id={id} version={props} />
    </div>
  );
}

const INHERITED_COLUMNS: Column<Property>[] = [
  { key: 'name', header: 'Name', cell: (p) => p.name },
  { key: 'value', header: 'Value', cell: (p) => p.value },
  { key: 'type', header: 'Type', cell: (p) => p.type_id },
];

/** The class's properties the entity does not override. `version`: read again when its own change. */
function InheritedProperties({ id, version }: { id: string; version: unknown }) {
  const r = useEntityRoute();
  const { data: all, error } = useApi(() => api.GET(r('/node/api/objects/{id}/props'), { params: { path: { id }, query: { effective: true } } }).then(data), [id, version]);
  const inherited = (all ?? []).filter((p) => p.inherited);
  if (inherited.length === 0 && !error) return null;
  return (
    <section aria-label="Inherited properties">
      <h3>From its class</h3>
      <ErrorBanner error={error} />
      <p className="muted">Set on the class (Tags, classes, states → Templates); add a property of the same name here to override one.</p>
      <DataTable label="Inherited properties" className="obj-cards" columns={INHERITED_COLUMNS} rows={inherited} rowKey={(p) => p.id} />
    </section>
  );
}
