// "Are you sure?" before a deletion, with the API's refusal shown in the same window.
import { useState } from 'react';
import { Dialog } from '../../components/dialog';
import { ErrorBanner } from '../../components/error-banner';

export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onClose }: {
  title: string;
  message: string;
  confirmLabel: string;
  /** Resolves when done (the window closes); a rejection is shown. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog title={title} open onClose={onClose}>
      <ErrorBanner error={error} />
      <p>{message}</p>
      <div className="row">
        <button type="button" className="danger" disabled={busy} onClick={() => void confirm()}>{confirmLabel}</button>
        <button type="button" onClick={onClose}>Cancel</button>
      </div>
    </Dialog>
  );
}
