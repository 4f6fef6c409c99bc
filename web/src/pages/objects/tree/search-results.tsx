// Objects whose name matches the search box, as a flat paged list (POST /objects/search with a
// case-insensitive $regex). The text is matched literally: regex characters are escaped.
import { Link } from 'wouter';
import { api, data } from '../../../api/client';
import { ErrorBanner } from '../../../components/error-banner';
import { Pager } from '../../../components/pager';
import { usePagedApi } from '../../../components/paging';
import { containsText } from '../../../components/search-text';
import { MaintenanceBadge } from '../../../components/maintenance-badge';
import { StateBadge } from '../../../components/states';
import type { LiveStates } from './use-live-states';
import type { Selection } from './types';

const PAGE = 50;

interface Props {
  query: string;
  live: LiveStates;
  selected: Selection | undefined;
  onSelect: (s: Selection) => void;
  /** Bumped by the page after a create or delete: search again. */
  revision: number;
}

export function SearchResults({ query, live, selected, onSelect, revision }: Props) {
  // A new search starts at its first page; a create or delete (revision) reloads the page shown.
  const found = usePagedApi(async (page) => {
    const body = { search: { name: containsText(query) }, options: { ...page, fields: ['name', 'state_id', 'path', 'maintenance'], sort: { name: 1 as const } } };
    return data(await api.POST('/node/api/objects/search', { body }));
  }, { deps: [revision], resetOn: [query], size: PAGE });
  const { rows: items, error, loading } = found;
  return (
    <section className="panel obj-results" aria-label="Search results" aria-busy={loading}>
      <ErrorBanner error={error} />
      {loading && !found.data ? <p className="loading">Searching…</p> : null}
      {found.data && items.length === 0 ? <p className="muted">No object name contains “{query}”.</p> : null}
      {items.length > 0 ? (
        <ul className="obj-result-list" aria-label="Matching objects">
          {items.map((o) => (
            <li key={o.id} className={selected?.id === o.id ? 'obj-row-selected' : undefined}>
              <Link href={`/objects/${o.id}`} className="obj-name">
                {o.name}
              </Link>
              <StateBadge stateId={live.get(o.id) ?? o.state_id ?? 0} />
              <MaintenanceBadge maintenance={o.maintenance} />
              <span className="muted obj-path">{o.path || '/'}</span>
              <button type="button" aria-pressed={selected?.id === o.id} aria-label={`Select ${o.name ?? o.id}`} onClick={() => onSelect({ id: o.id, name: o.name ?? o.id })}>
                Select
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <Pager label="Search result pages" page={found.page} hasNext={found.hasNext} onPage={found.setPage} shown={items.length} size={PAGE} busy={loading} />
    </section>
  );
}
