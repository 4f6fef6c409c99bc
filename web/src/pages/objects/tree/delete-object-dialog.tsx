// Deleting the selected object after a confirmation (DELETE /objects/{id}); the server also
// deletes the children this leaves without a parent, which the text says before it is done.
import { useState } from 'react';
import { api } from '../../../api/client';
import { Dialog } from '../../../components/dialog';
import { ErrorBanner } from '../../../components/error-banner';
import type { Selection } from './types';

interface Props {
  open: boolean;
  target: Selection;
  onClose: () => void;
  onDeleted: (id: string) => void;
}

export function DeleteObjectDialog({ open, target, onClose, onDeleted }: Props) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await api.DELETE('/node/api/objects/{id}', { params: { path: { id: target.id } } });
      onDeleted(target.id);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title="Delete object" open={open} onClose={() => { setError(undefined); onClose(); }}>
      <p>
        Delete <strong>{target.name}</strong> (id {target.id})? Its children that have no other parent are deleted too, with their links.
      </p>
      <ErrorBanner error={error} />
      <div className="row">
        <span className="spacer" />
        <button type="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => void remove()}>
          Delete {target.name}
        </button>
      </div>
    </Dialog>
  );
}
