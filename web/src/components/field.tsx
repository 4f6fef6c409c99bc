// A labelled form control. The label points at the control by id rather than wrapping it: a
// wrapped <select> would take its chosen option's text into its accessible name.
import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';

export function Field({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  const id = useId();
  // Only a plain element (input, select, textarea) is sure to carry the id to the DOM.
  if (!isValidElement(children) || typeof children.type !== 'string') {
    return (
      <label className="field">
        <span>{label}</span>
        {children}
        {hint ? <small>{hint}</small> : null}
      </label>
    );
  }
  const control = children as ReactElement<{ id?: string }>;
  const controlId = control.props.id ?? id;
  return (
    <div className="field">
      <label htmlFor={controlId}>{label}</label>
      {cloneElement(control, { id: controlId })}
      {hint ? <small>{hint}</small> : null}
    </div>
  );
}
