// Objects whose name matches the search box, as a flat paged list (POST /objects/search with a
// case-insensitive $regex). The text is matched literally: regex characters are escaped.
import { useState } from 'react';
import { Link } from 'wouter';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { ErrorBanner } from '../../../components/error-banner';
import { StateBadge } from '../../../components/states';
import type { LiveStates } from './use-live-states';
import type { Selection } from './types';

const PAGE = 50;
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Props {
  query: string;
  live: LiveStates;
  selected: Selection | undefined;
  onSelect: (s: Selection) => void;
  /** Bumped by the page after a create or delete: search again. */
  revision: number;
}

export function SearchResults({ query, live, selected, onSelect, revision }: Props) {
  const [skip, setSkip] = useState(0);
  const [forQuery, setForQuery] = useState(query);
  if (forQuery !== query) {
    // A new search starts at its first page.
    setForQuery(query);
    setSkip(0);
  }
  const { data: found, error, loading } = useApi(async () => {
    // One more than a page: whether a next page exists without counting everything.
    const body = { search: { name: { $regex: escapeRegex(query), $options: 'i' } }, options: { limit: PAGE + 1, skip, fields: ['name', 'state_id', 'path'], sort: { name: 1 as const } } };
    return data(await api.POST('/node/api/objects/search', { body }));
  }, [query, skip, revision]);

  const items = found?.slice(0, PAGE) ?? [];
  return (
    <section className="panel obj-results" aria-label="Search results" aria-busy={loading}>
      <ErrorBanner error={error} />
      {loading && !found ? <p className="loading">Searching…</p> : null}
      {found && items.length === 0 ? <p className="muted">No object name contains “{query}”.</p> : null}
      {items.length > 0 ? (
        <ul className="obj-result-list" aria-label="Matching objects">
          {items.map((o) => (
            <li key={o.id} className={selected?.id === o.id ? 'obj-row-selected' : undefined}>
              <Link href={`/objects/${o.id}`} className="obj-name">
                {o.name}
              </Link>
              <StateBadge stateId={live.get(o.id) ?? o.state_id ?? 0} />
              <span className="muted obj-path">{o.path || '/'}</span>
              <button type="button" aria-pressed={selected?.id === o.id} aria-label={`Select ${o.name ?? o.id}`} onClick={() => onSelect({ id: o.id, name: o.name ?? o.id })}>
                Select
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="row obj-pager">
        <button type="button" disabled={skip === 0 || loading} onClick={() => setSkip(Math.max(0, skip - PAGE))}>
          Previous
        </button>
        <span className="muted">{items.length > 0 ? `${skip + 1}–${skip + items.length}` : ''}</span>
        <button type="button" disabled={(found?.length ?? 0) <= PAGE || loading} onClick={() => setSkip(skip + PAGE)}>
          Next
        </button>
      </div>
    </section>
  );
}
