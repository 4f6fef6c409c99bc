// Choosing an object by name: a search box (POST /objects/search, the text matched literally,
// any case) with the first matches as buttons. Used to add a parent and to pick a link's ends.
import { useState } from 'react';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { ErrorBanner } from '../../../components/error-banner';
import { containsText } from '../../../components/search-text';
import { useDebounced } from '../../../components/use-debounced';
import './pickers.css';

const SHOWN = 8;

export interface Picked {
  id: string;
  name: string;
}

export function ObjectPicker({ label, onPick, exclude = [] }: { label: string; onPick: (o: Picked) => void; exclude?: string[] }) {
  const [text, setText] = useState('');
  const query = useDebounced(text.trim(), 250);
  const found = useApi(async () => {
    if (!query) return [];
    const body = { search: { name: containsText(query) }, options: { limit: SHOWN + exclude.length, fields: ['name', 'path'], sort: { name: 1 as const } } };
    return data(await api.POST('/node/api/objects/search', { body }));
  }, [query]);
  // Emptied (after a choice): no stale matches while the debounce catches up.
  const shownQuery = text.trim() ? query : '';
  const hits = (found.data ?? []).filter((o) => !exclude.includes(o.id)).slice(0, SHOWN);
  return (
    <div className="pick-object">
      <input type="search" aria-label={label} placeholder="Type a name…" value={text} onChange={(e) => setText(e.target.value)} />
      <ErrorBanner error={found.error} />
      {shownQuery && found.data && hits.length === 0 ? <p className="muted">No object name contains “{query}”.</p> : null}
      {shownQuery && hits.length > 0 ? (
        <ul className="pick-hits" aria-label={`${label}: matches`}>
          {hits.map((o) => (
            <li key={o.id}>
              <button
                type="button"
                className="link"
                aria-label={`Choose ${o.name ?? o.id}${o.path ? ` (${o.path})` : ''}`}
                onClick={() => {
                  onPick({ id: o.id, name: o.name ?? o.id });
                  setText('');
                }}
              >
                {o.name ?? o.id}
              </button>{' '}
              <span className="muted">{o.path || '/'}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
