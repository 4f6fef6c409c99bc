// The objects a search matches, 50 at a time (POST /objects/search), and on request how many
// match in all (ids only, up to a bound, so a huge match never loads whole).
import { useState } from 'react';
import { Link } from 'wouter';
import { api, data } from '../../api/client';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorBanner } from '../../components/error-banner';
import { Pager } from '../../components/pager';
import { usePagedApi } from '../../components/paging';
import { StateBadge } from '../../components/states';
import type { Named } from './catalog-lists';

const PAGE = 50;
const COUNT_UP_TO = 10_000;

export function BulkPreview({ search, tags }: { search: Record<string, unknown>; tags: Named[] }) {
  const [count, setCount] = useState<{ n: number; more: boolean } | { error: unknown }>();
  const found = usePagedApi(async (page) => {
    setCount(undefined);
    const body = { search, options: { ...page, fields: ['name', 'path', 'state_id', 'tags'] } };
    return data(await api.POST('/node/api/objects/search', { body }));
  }, { resetOn: [JSON.stringify(search)], size: PAGE });
  const tagName = new Map(tags.map((t) => [t.id, t.name]));
  const { rows } = found;

  async function countAll() {
    try {
      // The search's own bound: at most COUNT_UP_TO answered, so that many means "or more".
      const body = { search, options: { limit: COUNT_UP_TO, fields: ['id'] } };
      const all = data(await api.POST('/node/api/objects/search', { body }));
      setCount({ n: all.length, more: all.length >= COUNT_UP_TO });
    } catch (error) {
      setCount({ error });
    }
  }

  const columns: Column<(typeof rows)[number]>[] = [
    { key: 'name', header: 'Name', cell: (o) => <Link href={`/objects/${o.id}`}>{o.name ?? o.id}</Link> },
    { key: 'path', header: 'Path', cellClassName: () => 'muted bulk-path', cell: (o) => o.path },
    { key: 'state', header: 'State', cell: (o) => (o.state_id !== undefined ? <StateBadge stateId={o.state_id} /> : null) },
    { key: 'tags', header: 'Tags', cell: (o) => (o.tags ?? []).map((t) => tagName.get(t) ?? t).join(', ') },
  ];
  return (
    <section className="panel" aria-label="Preview of matching objects">
      <div className="row bulk-preview-head">
        <h2>Matching objects</h2>
        <span className="spacer" />
        {count && 'n' in count ? (
          <strong role="status">{count.more ? `${COUNT_UP_TO.toLocaleString()} or more objects match` : count.n === 1 ? '1 object matches' : `${count.n} objects match`}</strong>
        ) : (
          <button type="button" onClick={() => void countAll()}>Count all</button>
        )}
      </div>
      <p className="muted">The run changes only those of them you may change.</p>
      {count && 'error' in count ? <ErrorBanner error={count.error} /> : null}
      <ErrorBanner error={found.error} />
      {found.loading && !found.data ? <p className="loading">Loading…</p> : null}
      {found.data && rows.length === 0 && !found.error ? <p className="muted">No object matches.</p> : null}
      {rows.length > 0 ? (
        <DataTable label="Matching objects" columns={columns} rows={rows} rowKey={(o) => o.id} />
      ) : null}
      <Pager label="Preview pages" page={found.page} hasNext={found.hasNext} onPage={found.setPage} shown={rows.length} size={PAGE} />
    </section>
  );
}
