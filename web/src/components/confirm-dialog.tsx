// "Are you sure?" before a deletion, in a window that says what goes with it; the API's
// refusal (a level in use, a missing right) is shown in the same window, which stays open.
import type { ReactNode } from 'react';
import { Dialog } from './dialog';
import { DialogButtons } from './dialog-buttons';
import { ErrorBanner } from './error-banner';
import { useAction } from './use-action';

export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onClose }: {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** Resolves when done (the window closes); a rejection is shown. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const action = useAction();
  async function confirm() {
    if (await action.run(onConfirm)) onClose();
  }
  return (
    <Dialog title={title} open onClose={onClose}>
      <ErrorBanner error={action.error} />
      <p>{message}</p>
      {/* The safe answer comes first to the keyboard. */}
      <DialogButtons label={confirmLabel} tone="danger" disabled={action.busy} onClick={() => void confirm()} onCancel={onClose} focusCancel />
    </Dialog>
  );
}
