// The annotations of the chart range, paged through the API, with edit and delete.
import { useState } from 'react';
import { api, data } from '../../../api/client';
import { ErrorBanner } from '../../../components/error-banner';
import { formatTime } from '../../../components/format';
import { Pager } from '../../../components/pager';
import { usePagedApi } from '../../../components/paging';
import { ConfirmButton } from './confirm-button';
import type { Annotation } from './types';

const LIMIT = 20;

export function AnnotationList({ entityId, from, to, tick, onEdit, onChanged }: { entityId: string; from: number; to: number; tick: number; onEdit: (a: Annotation) => void; onChanged: () => void }) {
  const [actionError, setActionError] = useState<unknown>();
  const list = usePagedApi(
    (page) => api.GET('/node/api/history-annotations', { params: { query: { from, to, entityId, ...page } } }).then(data),
    { deps: [tick], resetOn: [entityId, from, to], size: LIMIT },
  );
  const remove = async (a: Annotation) => {
    setActionError(undefined);
    try {
      await api.DELETE('/node/api/history-annotations/{id}', { params: { path: { id: a.id } } });
      onChanged();
    } catch (err) {
      setActionError(err);
    }
  };
  const { rows } = list;
  return (
    <section className="panel" aria-labelledby="obj-annotations">
      <h2 id="obj-annotations">Annotations in this range</h2>
      <ErrorBanner error={actionError ?? list.error} />
      {list.data === undefined && list.loading ? <p className="loading">Loading…</p> : null}
      {list.data && rows.length === 0 ? <p className="muted">None. Click a chart (or use “Add annotation”) to mark a moment.</p> : null}
      {rows.length > 0 ? (
        <ul className="obj-annotations" aria-label="Annotations">
          {rows.map((a) => (
            <li key={a.id}>
              <span className="obj-ann-time">{formatTime(a.timestamp)}</span>
              <span className="obj-ann-text">{a.content}</span>
              <span className="obj-actions">
                <button type="button" onClick={() => onEdit(a)} aria-label={`Edit annotation ${a.content}`}>
                  Edit
                </button>
                <ConfirmButton label="Delete" subject={`annotation ${a.content}`} onConfirm={() => void remove(a)} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <Pager label="Annotation pages" page={list.page} hasNext={list.hasNext} onPage={list.setPage} shown={rows.length} size={LIMIT} />
    </section>
  );
}
