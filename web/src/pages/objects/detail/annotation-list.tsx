// The annotations of the chart range, paged through the API, with edit and delete.
import { useState } from 'react';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { ErrorBanner } from '../../../components/error-banner';
import { formatTime } from '../../../components/format';
import { ConfirmButton } from './confirm-button';
import { Pager } from './pager';
import type { Annotation } from './types';

const LIMIT = 20;

export function AnnotationList({ entityId, from, to, tick, onEdit, onChanged }: { entityId: string; from: number; to: number; tick: number; onEdit: (a: Annotation) => void; onChanged: () => void }) {
  const [skip, setSkip] = useState(0);
  const [actionError, setActionError] = useState<unknown>();
  const list = useApi(
    () => api.GET('/node/api/history-annotations', { params: { query: { from, to, entityId, limit: LIMIT, skip } } }).then(data),
    [entityId, from, to, skip, tick],
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
  const rows = list.data;
  return (
    <section className="panel" aria-labelledby="obj-annotations">
      <h2 id="obj-annotations">Annotations in this range</h2>
      <ErrorBanner error={actionError ?? list.error} />
      {rows === undefined && list.loading ? <p className="loading">Loading…</p> : null}
      {rows && rows.length === 0 ? <p className="muted">None. Click a chart (or use “Add annotation”) to mark a moment.</p> : null}
      {rows && rows.length > 0 ? (
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
      <Pager label="Annotations" skip={skip} limit={LIMIT} count={rows?.length ?? 0} onSkip={setSkip} />
    </section>
  );
}
