// The row of buttons that ends a dialog: the action (submitting the dialog's form, or a click
// for a dialog with no form) and Cancel. One component so every dialog's buttons look, order
// and behave alike; the variations the dialogs need are props.
import type { ReactNode } from 'react';

export function DialogButtons({ label, disabled = false, onCancel, onClick, tone = 'primary', cancelFirst = false, focusCancel = false }: {
  /** The action's text. */
  label: ReactNode;
  /** True while the action runs (or cannot run yet). */
  disabled?: boolean;
  onCancel: () => void;
  /** For a dialog without a form: the action is a plain button running this (else it submits the form). */
  onClick?: () => void;
  /** 'danger' for a deletion. */
  tone?: 'primary' | 'danger';
  /** Cancel, then the action, pushed to the row's end. */
  cancelFirst?: boolean;
  /** Cancel takes the focus when the dialog opens: the safe answer comes first to the keyboard. */
  focusCancel?: boolean;
}) {
  const action = onClick
    ? <button type="button" className={tone} disabled={disabled} onClick={onClick}>{label}</button>
    : <button type="submit" className={tone} disabled={disabled}>{label}</button>;
  const cancel = <button type="button" onClick={onCancel} autoFocus={focusCancel}>Cancel</button>;
  return (
    <div className="row">
      {cancelFirst ? <><span className="spacer" />{cancel}{action}</> : <>{action}{cancel}</>}
    </div>
  );
}
