// Finding objects by name (POST /objects/search, a case-insensitive regex) to add to a report.
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { containsText } from '../../components/search-text';
import { useAction } from '../../components/use-action';

const RESULTS = 20;

interface Found {
  id: string;
  name?: string;
  path?: string;
}

export function EntityPicker({ chosen, onAdd }: { chosen: ReadonlySet<string>; onAdd: (o: { id: string; name: string }) => void }) {
  const [text, setText] = useState('');
  const [found, setFound] = useState<Found[]>();
  const finding = useAction();

  async function search(e: FormEvent) {
    e.preventDefault();
    const body = { search: { name: containsText(text.trim()) }, options: { limit: RESULTS, fields: ['name', 'path'] } };
    // A refused search leaves no earlier answer standing as if it were this one's.
    if (!(await finding.run(async () => setFound(data(await api.POST('/node/api/objects/search', { body })))))) setFound(undefined);
  }

  return (
    <div className="rep-picker">
      <form className="row" onSubmit={search} role="search" aria-label="Find objects">
        <Field label="Object name">
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="part of a name" />
        </Field>
        <button type="submit" disabled={finding.busy}>Find</button>
      </form>
      <ErrorBanner error={finding.error} />
      {found && found.length === 0 ? <p className="muted">No object has such a name.</p> : null}
      {found && found.length > 0 ? (
        <ul className="rep-found" aria-label="Objects found">
          {found.map((o) => (
            <li key={o.id}>
              <span className="rep-found-name">{o.name ?? o.id} <span className="muted">{o.path && o.path !== o.name ? o.path : `#${o.id}`}</span></span>
              <button type="button" onClick={() => onAdd({ id: o.id, name: o.name ?? o.id })} disabled={chosen.has(o.id)} aria-label={`Add ${o.name ?? o.id}`}>
                {chosen.has(o.id) ? 'Added' : 'Add'}
              </button>
            </li>
          ))}
          {found.length === RESULTS ? <li className="muted">First {RESULTS} shown; type more of the name to narrow.</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
