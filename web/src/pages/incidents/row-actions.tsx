// What can be done to an active incident from its row: acknowledge or drop the
// acknowledgement, comment, clear or undo the clearing, and move it to history at once. Each
// button names its incident so screen readers (and tests) tell the rows apart.
import { useState } from 'react';
import { api } from '../../api/client';
import { CLEARED, type Incident } from './types';

type Action = 'acknowledge' | 'unacknowledge' | 'clear' | 'undo-clear' | 'clear-remove';

const post = (id: string, action: Action) => {
  const params = { params: { path: { id } } };
  switch (action) {
    case 'acknowledge':
      return api.POST('/node/api/incidents/{id}/acknowledge', params);
    case 'unacknowledge':
      return api.POST('/node/api/incidents/{id}/unacknowledge', params);
    case 'clear':
      return api.POST('/node/api/incidents/{id}/clear', params);
    case 'undo-clear':
      return api.POST('/node/api/incidents/{id}/undo-clear', params);
    case 'clear-remove':
      return api.POST('/node/api/incidents/{id}/clear-remove', params);
  }
};

interface Props {
  incident: Incident;
  /** After an action: the row is read again (or dropped, when it went to history). */
  onDone: (id: string, gone: boolean) => void;
  onError: (e: unknown) => void;
  onComments: (i: Incident) => void;
}

export function RowActions({ incident: i, onDone, onError, onComments }: Props) {
  const [busy, setBusy] = useState(false);
  const run = async (action: Action) => {
    setBusy(true);
    try {
      await post(i.id, action);
      onDone(i.id, action === 'clear-remove');
    } catch (e) {
      onError(e);
    } finally {
      setBusy(false);
    }
  };
  const cleared = i.state === CLEARED;
  return (
    <div className="inc-buttons">
      {i.acknowledgedBy ? (
        <button type="button" disabled={busy} aria-label={`Unacknowledge incident ${i.id}`} onClick={() => void run('unacknowledge')}>
          Unacknowledge
        </button>
      ) : (
        <button type="button" className="primary" disabled={busy} aria-label={`Acknowledge incident ${i.id}`} onClick={() => void run('acknowledge')}>
          Acknowledge
        </button>
      )}
      <button type="button" aria-label={`Comments on incident ${i.id}`} onClick={() => onComments(i)}>
        Comments{i.commentsCount ? ` (${i.commentsCount})` : ''}
      </button>
      {cleared ? (
        <button type="button" disabled={busy} aria-label={`Undo clear of incident ${i.id}`} onClick={() => void run('undo-clear')}>
          Undo clear
        </button>
      ) : (
        <button type="button" disabled={busy} aria-label={`Clear incident ${i.id}`} onClick={() => void run('clear')}>
          Clear
        </button>
      )}
      <button type="button" className="danger" disabled={busy} aria-label={`Move incident ${i.id} to history`} onClick={() => void run('clear-remove')}>
        To history
      </button>
    </div>
  );
}
