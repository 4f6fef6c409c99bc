// The search builder: rows of field / operator / value, all or any of them to match. What it
// makes is shown as JSON too, so an operator learns the API's criteria as they go.
import { useStates } from '../../components/states';
import type { Named } from './catalog-lists';
import { FIELDS, newCondition, opsOf, type Condition, type SearchField } from './search-criteria';

function ValueInput({ c, n, tags, classes, onChange }: { c: Condition; n: number; tags: Named[]; classes: Named[]; onChange: (value: string) => void }) {
  const states = useStates();
  const label = `Value of condition ${n}`;
  const choose = (options: Array<{ id: string; name: string }>) => (
    <select aria-label={label} value={c.value} onChange={(e) => onChange(e.target.value)}>
      <option value="">choose…</option>
      {options.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
    </select>
  );
  if (c.field === 'tag') return choose(tags);
  if (c.field === 'class') return choose(classes);
  if (c.field === 'state') return choose([...states.values()].map((s) => ({ id: String(s.id), name: s.name })));
  if (c.field === 'property' && (c.op === 'exists' || c.op === 'missing')) return null;
  return <input aria-label={label} type="text" value={c.value} onChange={(e) => onChange(e.target.value)} spellCheck={false} />;
}

export function SearchBuilder({ rows, match, tags, classes, onRows, onMatch }: {
  rows: Condition[];
  match: 'all' | 'any';
  tags: Named[];
  classes: Named[];
  onRows: (rows: Condition[]) => void;
  onMatch: (m: 'all' | 'any') => void;
}) {
  const change = (key: number, patch: Partial<Condition>) => onRows(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <fieldset className="bulk-search">
      <legend>Objects to change</legend>
      {rows.length > 1 ? (
        <label className="bulk-inline">
          <span>Objects must match</span>
          <select aria-label="Objects must match" value={match} onChange={(e) => onMatch(e.target.value as 'all' | 'any')}>
            <option value="all">all conditions</option>
            <option value="any">any condition</option>
          </select>
        </label>
      ) : null}
      {rows.length === 0 ? <p className="muted">No condition: add one to choose objects.</p> : null}
      <ol className="bulk-rows">
        {rows.map((c, i) => (
          <li key={c.key} className="bulk-row">
            <select aria-label={`Field of condition ${i + 1}`} value={c.field} onChange={(e) => {
              const field = e.target.value as SearchField;
              change(c.key, { field, op: opsOf(field)[0]![0], value: '' });
            }}>
              {FIELDS.map((f) => <option key={f.value} value={f.value}>{f.label}</option>)}
            </select>
            {c.field === 'property' ? (
              <input aria-label={`Property name of condition ${i + 1}`} placeholder="property name" type="text" value={c.prop} onChange={(e) => change(c.key, { prop: e.target.value })} />
            ) : null}
            <select aria-label={`Operator of condition ${i + 1}`} value={c.op} onChange={(e) => change(c.key, { op: e.target.value })}>
              {opsOf(c.field).map(([op, label]) => <option key={op} value={op}>{label}</option>)}
            </select>
            <ValueInput c={c} n={i + 1} tags={tags} classes={classes} onChange={(value) => change(c.key, { value })} />
            <button type="button" className="icon" aria-label={`Remove condition ${i + 1}`} onClick={() => onRows(rows.filter((r) => r.key !== c.key))}>×</button>
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => onRows([...rows, newCondition()])}>Add condition</button>
    </fieldset>
  );
}
