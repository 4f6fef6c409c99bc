// Paging of lists. The API pages with limit/skip and sends no total, so one row more than a
// page is asked for: its presence says a next page exists. Lists the API sends whole (tags,
// classes, an object's properties) are paged here instead, with pageOf.
import { useState } from 'react';
import { useApi, type Loaded } from '../api/use-api';

/** limit/skip of a page, one row more than it shows. */
export const pageQuery = (page: number, size: number) => ({ limit: size + 1, skip: page * size });

/** The rows a page shows of what pageQuery answered, and whether a next page exists. */
export function splitPage<T>(answered: readonly T[] | undefined, size: number): { rows: T[]; hasNext: boolean } {
  return { rows: answered?.slice(0, size) ?? [], hasNext: (answered?.length ?? 0) > size };
}

/** Client-side paging of a whole list; a page past the end (the list shrank) shows the last. */
export function pageOf<T>(items: readonly T[], page: number, size: number): { rows: T[]; hasNext: boolean; page: number } {
  const last = Math.max(0, Math.ceil(items.length / size) - 1);
  const p = Math.min(page, last);
  return { rows: items.slice(p * size, p * size + size), hasNext: p < last, page: p };
}

export interface PagedList<T> extends Loaded<T[]> {
  /** The rows of this page (none after an error: the last page is not shown as its answer). */
  rows: T[];
  hasNext: boolean;
  page: number;
  size: number;
  setPage: (page: number) => void;
  /** A new page size starts again at the first page. */
  setSize: (size: number) => void;
}

/**
 * One page of a list the API pages: `load` gets limit/skip (one row more than a page). A change
 * of anything in `resetOn` (the search, compared as React compares deps) starts again at the
 * first page; a change in `deps` (a live tick, a revision) reloads the page shown.
 */
export function usePagedApi<T>(
  load: (q: { limit: number; skip: number }) => Promise<T[]>,
  { deps = [], resetOn = [], size: initialSize }: { deps?: readonly unknown[]; resetOn?: readonly unknown[]; size: number },
): PagedList<T> {
  const [page, setPage] = useState(0);
  const [size, setSizeState] = useState(initialSize);
  const [pagedSearch, setPagedSearch] = useState(resetOn);
  if (pagedSearch.length !== resetOn.length || pagedSearch.some((v, i) => !Object.is(v, resetOn[i]))) {
    // Adjusted while rendering, so the new search never asks for the old page.
    setPagedSearch(resetOn);
    setPage(0);
  }
  const loaded = useApi(() => load(pageQuery(page, size)), [...deps, ...resetOn, page, size]);
  const { rows, hasNext } = loaded.error ? { rows: [], hasNext: false } : splitPage(loaded.data, size);
  return {
    ...loaded,
    rows,
    hasNext,
    page,
    size,
    setPage,
    setSize: (n) => {
      setSizeState(n);
      setPage(0);
    },
  };
}
