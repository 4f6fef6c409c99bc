// Properties: the list (GET /props answers them all; shown a page at a time), add, edit, delete.
import { useState } from 'react';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { ErrorBanner } from '../../../components/error-banner';
import { Pager } from '../../../components/pager';
import { pageOf } from '../../../components/paging';
import { AddPropertyForm } from './add-property-form';
import { PropertyRow } from './property-row';
import { useEntityRoute } from './entity';

const LIMIT = 50;

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
        <div className="table-wrap">
          <table aria-label="Properties" className="obj-cards">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
                <th scope="col">Type</th>
                <th scope="col">Updated</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {page.rows.map((p) => (
                <PropertyRow key={`${p.id}-${p.updated}`} id={id} p={p} onChanged={reload} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager label="Properties pages" page={page.page} hasNext={page.hasNext} onPage={setPage} shown={page.rows.length} size={LIMIT} />
    </div>
  );
}
