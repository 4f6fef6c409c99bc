// What both log pages show under their search: the API's error, loading, "no records", the
// page of records (drawn by the page's own table) and the pager with its "Per page" choice.
import type { ReactNode } from 'react';
import { ErrorBanner } from '../../components/error-banner';
import { Pager } from '../../components/pager';
import type { PagedList } from '../../components/paging';

export function LogResults<T>({ list, label, children }: { list: PagedList<T>; label: string; children: (records: T[]) => ReactNode }) {
  return (
    <>
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
      {list.data && list.rows.length === 0 && !list.error ? (
        <p className="log-empty muted">{list.page > 0 ? 'No more records.' : 'No records match.'}</p>
      ) : null}
      {list.rows.length > 0 ? children(list.rows) : null}
      <Pager
        label={label}
        page={list.page}
        hasNext={list.hasNext}
        onPage={list.setPage}
        shown={list.rows.length}
        size={list.size}
        onSize={list.setSize}
      />
    </>
  );
}
