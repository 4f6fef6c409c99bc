// Properties: the list (GET /props answers them all; shown a page at a time), add, edit, delete.
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
    </div>
  );
}
