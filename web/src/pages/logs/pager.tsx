// Paging for lists the API pages with limit/skip but does not count: one record more than a
// page is asked for, so "Next" is offered only when there is a next page.
import { Field } from '../../components/field';

export const PAGE_SIZES = [25, 50, 100, 200] as const;

export function Pager({ page, pageSize, hasNext, shown, onPage, onPageSize, label }: {
  page: number;
  pageSize: number;
  hasNext: boolean;
  shown: number;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
  label: string;
}) {
  const first = page * pageSize + 1;
  return (
    <nav className="row log-pager" aria-label={label}>
      <button type="button" onClick={() => onPage(page - 1)} disabled={page === 0}>Previous</button>
      <span className="muted" aria-live="polite">
        {shown === 0 ? `Page ${page + 1}` : `Page ${page + 1} · records ${first}–${first + shown - 1}`}
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={!hasNext}>Next</button>
      <span className="spacer" />
      <Field label="Per page">
        <select value={pageSize} onChange={(e) => onPageSize(Number(e.target.value))}>
          {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </Field>
    </nav>
  );
}
