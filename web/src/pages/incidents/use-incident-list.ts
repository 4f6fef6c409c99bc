// One page of incidents as the table shows it, kept current: loaded with the layout's sort,
// the filter and a page of limit/skip (components/paging: one row more than shown), then
// changed in place by the live stream. A changed row is replaced where it stands, a removed one
// dropped; a newly raised incident (or one that moved to history, on that page) reloads the
// page shortly after, so it lands where the server's sort and filter put it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { pageQuery, splitPage } from '../../components/paging';
import { useLiveEvents } from '../../live/use-live-events';
import type { Query } from './filter-bar';
import type { TableLayout } from './table-layout';
import type { Incident, Scope } from './types';

/** Events come in bursts (one state change can raise several incidents): one reload for all. */
const RELOAD_DELAY_MS = 300;

export interface Paging {
  page: number;
  size: number;
}

export function useIncidentList(scope: Scope, sort: TableLayout['sort'], query: Query, paging: Paging) {
  const { page, size } = paging;
  const loaded = useApi(async () => {
    const q = { ...pageQuery(page, size), filter: query.filter };
    if (scope === 'active') {
      return data(await api.GET('/node/api/incidents', { params: { query: { ...q, sortField: sort.column, sortDirection: sort.direction } } }));
    }
    return data(await api.GET('/node/api/incident-history', { params: { query: { ...q, inverse: sort.direction === 'asc', from: query.from, to: query.to } } }));
  }, [scope, sort.column, sort.direction, query.filter, query.from, query.to, page, size]);

  const [rows, setRows] = useState<Incident[]>([]);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const answered = splitPage(loaded.data, size);
  useEffect(() => {
    if (loaded.data) setRows(answered.rows);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded.data, size]);
  const hasMore = answered.hasNext;

  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { reload } = loaded;
  const reloadSoon = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(reload, RELOAD_DELAY_MS);
  }, [reload]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const replace = useCallback((i: Incident) => setRows((rs) => rs.map((r) => (r.id === i.id ? i : r))), []);
  const drop = useCallback((id: string) => setRows((rs) => rs.filter((r) => r.id !== id)), []);

  useLiveEvents(['incident'], (event) => {
    const i = event.incident;
    if (!i?.id) return;
    const present = rowsRef.current.some((r) => r.id === i.id);
    if (scope === 'history') {
      if (event.action === 'removed') reloadSoon();
      return;
    }
    if (event.action === 'removed') {
      if (present) drop(i.id);
      // The next page's first row now belongs on this one.
      if (present && hasMore) reloadSoon();
    } else if (present) {
      replace(i);
      // The change may take the row out of the filter (acknowledged, cleared, …).
      if (query.filter) reloadSoon();
    } else if (event.action === 'raised') {
      reloadSoon();
    }
  });

  return { rows, hasMore, error: loaded.error, loading: loaded.loading, reload, replace, drop };
}
