// A modal dialog on the native <dialog> element: focus is trapped and Escape closes it. Focus
// goes back to what had it before the dialog opened, also when the caller unmounts the dialog
// while open (the usual `{open ? <Dialog/> : null}`), which the browser would not do.
import { useEffect, useRef, type ReactNode } from 'react';

export function Dialog({ title, open, onClose, children }: { title: string; open: boolean; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      d.showModal();
    }
    if (!open && d.open) d.close();
    if (!open) restore();
  }, [open]);
  // Unmounted while open: close it ourselves and give focus back.
  useEffect(() => () => restore(), []);
  function restore(): void {
    const target = opener.current;
    opener.current = null;
    if (target && target.isConnected) setTimeout(() => target.focus(), 0);
  }
  return (
    <dialog ref={ref} aria-label={title} onClose={onClose} onCancel={onClose}>
      <header className="dialog-head">
        <h2>{title}</h2>
        <button type="button" className="icon" aria-label="Close" onClick={onClose}>×</button>
      </header>
      {open ? children : null}
    </dialog>
  );
}
