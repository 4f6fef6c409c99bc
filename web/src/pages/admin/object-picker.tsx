// Picks objects by searching their names (POST /objects/search) and shows the chosen ones as
// removable chips with their names. Used for a user's object access (include / exclude).
import { useState, type KeyboardEvent } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ErrorBanner } from '../../components/error-banner';
import { containsText } from '../../components/search-text';
import { useDebounced } from '../../components/use-debounced';
import type { FoundObject } from './admin-types';

export interface PickedObject {
  id: string;
  name: string;
  path?: string;
}

const RESULTS = 10;
const describe = (o: FoundObject): PickedObject => ({ id: o.id, name: o.name ?? `object ${o.id}`, path: o.path });

/** Names of objects known by id only (a user's saved objectPermissions). */
export async function objectsByIds(ids: readonly string[]): Promise<PickedObject[]> {
  if (ids.length === 0) return [];
  const found = data(await api.POST('/node/api/objects/search', { body: { search: { id: { $in: ids } }, options: { fields: ['name', 'path'], limit: ids.length } } }));
  const byId = new Map(found.map((o) => [o.id, describe(o)]));
  // An object deleted (or hidden) since keeps its id, so it can still be removed.
  return ids.map((id) => byId.get(id) ?? { id, name: `object ${id} (not found)` });
}

export function ObjectPicker({ label, value, onChange }: { label: string; value: PickedObject[]; onChange: (v: PickedObject[]) => void }) {
  const [text, setText] = useState('');
  // Search as the operator types, after a short pause; a later answer replaces an earlier one.
  const term = useDebounced(text.trim(), 250);
  const found = useApi(async () => {
    if (term === '') return [];
    const body = { search: { name: containsText(term) }, options: { fields: ['name', 'path'], limit: RESULTS, sort: { name: 1 as const } } };
    return data(await api.POST('/node/api/objects/search', { body })).map(describe);
  }, [term]);

  const chosen = new Set(value.map((v) => v.id));
  const offered = text.trim() === '' ? [] : (found.data ?? []).filter((r) => !chosen.has(r.id));
  function add(o: PickedObject) {
    onChange([...value, o]);
    setText('');
  }
  // Enter picks the first match instead of submitting the surrounding form.
  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    if (offered[0]) add(offered[0]);
  }

  return (
    <fieldset className="adm-picker">
      <legend>{label}</legend>
      <ul className="adm-chips" aria-label={`${label}: chosen objects`}>
        {value.length === 0 ? <li className="muted">none</li> : null}
        {value.map((o) => (
          <li key={o.id} className="adm-chip" title={o.path ?? o.name}>
            {o.name}
            <button type="button" aria-label={`Remove ${o.name}`} onClick={() => onChange(value.filter((v) => v.id !== o.id))}>×</button>
          </li>
        ))}
      </ul>
      <input
        type="search"
        value={text}
        placeholder="Search objects by name"
        aria-label={`Search: ${label}`}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKey}
        autoComplete="off"
      />
      <ErrorBanner error={found.error} />
      {offered.length > 0 ? (
        <ul className="adm-results" aria-label={`Matches: ${label}`}>
          {offered.map((o) => (
            <li key={o.id}>
              <button type="button" aria-label={`Add ${o.path || o.name}`} onClick={() => add(o)}>
                {o.name} <span className="muted">{o.path && o.path !== o.name ? o.path : ''}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
