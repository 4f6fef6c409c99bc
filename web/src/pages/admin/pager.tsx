// Previous / next paging for lists the API pages with limit and skip. The caller asks for one
// row more than a page to learn whether a next page exists (the API sends no total).
export function Pager({ page, hasNext, onPage, label }: { page: number; hasNext: boolean; onPage: (page: number) => void; label: string }) {
  if (page === 0 && !hasNext) return null;
  return (
    <nav className="adm-pager" aria-label={label}>
      <button type="button" disabled={page === 0} onClick={() => onPage(page - 1)}>Previous</button>
      <span>Page {page + 1}</span>
      <button type="button" disabled={!hasNext} onClick={() => onPage(page + 1)}>Next</button>
    </nav>
  );
}

/** Client-side paging for the lists the API sends whole (tags, classes, states). */
export function pageOf<T>(items: readonly T[], page: number, size: number): { rows: T[]; hasNext: boolean; page: number } {
  const last = Math.max(0, Math.ceil(items.length / size) - 1);
  const p = Math.min(page, last);
  return { rows: items.slice(p * size, p * size + size), hasNext: p < last, page: p };
}
