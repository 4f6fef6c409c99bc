// A labelled form control, with an optional hint that screen readers read with the control
// (aria-describedby). The label points at the control by id rather than wrapping it: a
// wrapped <select> would take its chosen option's text into its accessible name.
import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';

export function Field({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  const id = useId();
  const hintId = `${id}-hint`;
  // Only a plain element (input, select, textarea) is sure to carry the id to the DOM; anything
  // else is wrapped by its label, and its hint follows unlinked (kept out of the label's name).
  if (!isValidElement(children) || typeof children.type !== 'string') {
    return (
      <>
        <label className="field">
          <span>{label}</span>
          {children}
        </label>
        {hint ? <small className="muted">{hint}</small> : null}
      </>
    );
  }
  const control = children as ReactElement<{ id?: string; 'aria-describedby'?: string }>;
  const controlId = control.props.id ?? id;
  const describedBy = [control.props['aria-describedby'], hint ? hintId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={controlId}>{label}</label>
      {cloneElement(control, { id: controlId, 'aria-describedby': describedBy })}
      {hint ? <small id={hintId}>{hint}</small> : null}
    </div>
  );
}
