// A destructive button that asks once more in place (no window.confirm: it blocks, and
// automated browsers dismiss it): the first press arms it for a few seconds.
import { useEffect, useState } from 'react';

/** `subject` names what is deleted for screen readers ("Delete property cpu"). */
export function ConfirmButton({ label, subject, onConfirm, disabled }: { label: string; subject?: string; onConfirm: () => void; disabled?: boolean }) {
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    if (!armed) return;
    const t = setTimeout(() => setArmed(false), 4000);
    return () => clearTimeout(t);
  }, [armed]);
  const text = armed ? `Confirm ${label.toLowerCase()}` : label;
  return (
    <button
      type="button"
      className="danger"
      disabled={disabled}
      aria-label={subject ? `${text} ${subject}` : undefined}
      onClick={() => {
        if (armed) {
          setArmed(false);
          onConfirm();
        } else setArmed(true);
      }}
    >
      {text}
    </button>
  );
}
