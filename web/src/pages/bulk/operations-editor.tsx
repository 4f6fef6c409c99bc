// The operations a bulk applies to every matched object: each its own small form, added from
// a list of kinds and removable. Controls are named with the operation's number, so several
// of one kind stay apart for screen readers.
import { useState } from 'react';
import { Field } from '../../components/field';
import { PROP_TYPES } from '../../components/prop-types';
import type { Named } from './catalog-lists';
import { newOp, OP_KINDS, opLabel, SETTING_EXAMPLES, type OpDraft, type OpKind } from './operations';

function OpFields({ op, n, tags, onChange }: { op: OpDraft; n: number; tags: Named[]; onChange: (op: OpDraft) => void }) {
  const of = (what: string) => `${what} of operation ${n}`;
  switch (op.kind) {
    case 'property':
      return (
        <div className="row">
          <Field label="Property name"><input aria-label={of('Property name')} type="text" value={op.name} onChange={(e) => onChange({ ...op, name: e.target.value })} /></Field>
          <Field label="Value"><input aria-label={of('Property value')} type="text" value={op.value} onChange={(e) => onChange({ ...op, value: e.target.value })} /></Field>
          <Field label="Type">
            <select aria-label={of('Property type')} value={op.typeId} onChange={(e) => onChange({ ...op, typeId: Number(e.target.value) })}>
              {PROP_TYPES.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
            </select>
          </Field>
        </div>
      );
    case 'name':
      return <Field label="New name"><input aria-label={of('New name')} type="text" value={op.value} onChange={(e) => onChange({ ...op, value: e.target.value })} /></Field>;
    case 'parent':
      return (
        <Field label="Parent object ids" hint="comma-separated; replaces the objects' parents">
          <input aria-label={of('Parent object ids')} type="text" value={op.value} onChange={(e) => onChange({ ...op, value: e.target.value })} />
        </Field>
      );
    case 'client_data':
      return <Field label="Client data"><input aria-label={of('Client data')} type="text" value={op.value} onChange={(e) => onChange({ ...op, value: e.target.value })} /></Field>;
    case 'tags':
      return (
        <fieldset className="bulk-tags">
          <legend>Tags (replace the objects' tags; none ticked removes them all)</legend>
          {tags.length === 0 ? <span className="muted">No tag exists yet.</span> : null}
          {tags.map((t) => (
            <label key={t.id} className="bulk-inline">
              <input
                type="checkbox"
                checked={op.tags.includes(t.id)}
                onChange={(e) => onChange({ ...op, tags: e.target.checked ? [...op.tags, t.id] : op.tags.filter((x) => x !== t.id) })}
              />
              <span>{t.name}</span>
            </label>
          ))}
        </fieldset>
      );
    default:
      return (
        <Field label="Document (JSON)" hint={`replaces the whole document; e.g. ${SETTING_EXAMPLES[op.kind]}`}>
          <textarea aria-label={of('Document')} rows={4} spellCheck={false} value={op.json} onChange={(e) => onChange({ ...op, json: e.target.value })} />
        </Field>
      );
  }
}

export function OperationsEditor({ ops, tags, onChange }: { ops: OpDraft[]; tags: Named[]; onChange: (ops: OpDraft[]) => void }) {
  const [kind, setKind] = useState<OpKind>('property');
  return (
    <fieldset className="bulk-ops">
      <legend>Operations</legend>
      {ops.length === 0 ? <p className="muted">No operation yet.</p> : null}
      {ops.map((op, i) => (
        <fieldset key={op.key} className="bulk-op">
          <legend>{i + 1}. {opLabel(op.kind)}</legend>
          <OpFields op={op} n={i + 1} tags={tags} onChange={(next) => onChange(ops.map((o) => (o.key === op.key ? next : o)))} />
          <button type="button" className="link danger" aria-label={`Remove operation ${i + 1}`} onClick={() => onChange(ops.filter((o) => o.key !== op.key))}>Remove</button>
        </fieldset>
      ))}
      <div className="row">
        <Field label="Operation to add">
          <select value={kind} onChange={(e) => setKind(e.target.value as OpKind)}>
            {OP_KINDS.map((k) => <option key={k.kind} value={k.kind}>{k.label}</option>)}
          </select>
        </Field>
        <button type="button" onClick={() => onChange([...ops, newOp(kind)])}>Add operation</button>
      </div>
    </fieldset>
  );
}
