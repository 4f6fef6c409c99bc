// What can be done to an active incident from its row: acknowledge (plainly, or with a
// message, expiry and stickiness) or drop the acknowledgement, comment, change the level,
// suppress until a time or unsuppress, clear or undo the clearing, move it to history at once
// (closed), and read its actions. Each button names its incident so screen readers (and tests)
// tell the rows apart.
import { useState } from 'react';
import { api } from '../../api/client';
import { AckDialog } from './ack-dialog';
import { LevelDialog } from './level-dialog';
import { SuppressDialog } from './suppress-dialog';
import { CLEARED, type Incident } from './types';
import type { Levels } from './use-levels';

type Action = 'acknowledge' | 'unacknowledge' | 'clear' | 'undo-clear' | 'clear-remove' | 'unsuppress';

const post = (id: string, action: Action) => {
  const params = { params: { path: { id } } };
  switch (action) {
    case 'acknowledge':
      return api.POST('/node/api/incidents/{id}/acknowledge', { ...params, body: {} });
    case 'unacknowledge':
      return api.POST('/node/api/incidents/{id}/unacknowledge', params);
    case 'clear':
      return api.POST('/node/api/incidents/{id}/clear', params);
    case 'undo-clear':
      return api.POST('/node/api/incidents/{id}/undo-clear', params);
    case 'clear-remove':
      return api.POST('/node/api/incidents/{id}/clear-remove', params);
    case 'unsuppress':
      return api.POST('/node/api/incidents/{id}/unsuppress', params);
  }
};

interface Props {
  incident: Incident;
  /** After an action: the row is read again (or dropped, when it went to history). */
  onDone: (id: string, gone: boolean) => void;
  onError: (e: unknown) => void;
  onComments: (i: Incident) => void;
  onHistory: (i: Incident) => void;
  levels: Levels;
}

export function RowActions({ incident: i, onDone, onError, onComments, onHistory, levels }: Props) {
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<'ack' | 'level' | 'suppress'>();
  const done = () => {
    setDialog(undefined);
    onDone(i.id, false);
  };
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
        <>
          <button type="button" className="primary" disabled={busy} aria-label={`Acknowledge incident ${i.id}`} onClick={() => void run('acknowledge')}>
            Acknowledge
          </button>
          <button type="button" disabled={busy} aria-label={`Acknowledge with a message: incident ${i.id}`} onClick={() => setDialog('ack')}>
            Ack…
          </button>
        </>
      )}
      <button type="button" aria-label={`Comments on incident ${i.id}`} onClick={() => onComments(i)}>
        Comments{i.commentsCount ? ` (${i.commentsCount})` : ''}
      </button>
      <button type="button" aria-label={`Actions on incident ${i.id}`} onClick={() => onHistory(i)}>
        Actions
      </button>
      {cleared ? null : (
        <button type="button" disabled={busy} aria-label={`Change level of incident ${i.id}`} onClick={() => setDialog('level')}>
          Level…
        </button>
      )}
      {i.suppression?.kind === 'manual' ? (
        <button type="button" disabled={busy} aria-label={`Unsuppress incident ${i.id}`} onClick={() => void run('unsuppress')}>
          Unsuppress
        </button>
      ) : !cleared && !i.suppression ? (
        <button type="button" disabled={busy} aria-label={`Suppress incident ${i.id}`} onClick={() => setDialog('suppress')}>
          Suppress…
        </button>
      ) : null}
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
      {dialog === 'ack' ? <AckDialog incident={i} onClose={() => setDialog(undefined)} onDone={done} /> : null}
      {dialog === 'level' ? <LevelDialog incident={i} levels={levels} onClose={() => setDialog(undefined)} onDone={done} /> : null}
      {dialog === 'suppress' ? <SuppressDialog incident={i} onClose={() => setDialog(undefined)} onDone={done} /> : null}
    </div>
  );
}
