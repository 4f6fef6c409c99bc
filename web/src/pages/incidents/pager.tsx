// Paging by limit and skip: previous and next pages, and how many rows a page holds.
export const PAGE_SIZES = [25, 50, 100, 200] as const;

interface Props {
  skip: number;
  limit: number;
  shown: number;
  hasMore: boolean;
  onChange: (p: { skip: number; limit: number }) => void;
}

export function Pager({ skip, limit, shown, hasMore, onChange }: Props) {
  return (
    <nav className="row inc-pager" aria-label="Pages">
      <button type="button" disabled={skip === 0} onClick={() => onChange({ skip: Math.max(0, skip - limit), limit })}>
        Previous page
      </button>
      <span className="muted" aria-live="polite">
        {shown === 0 ? 'No rows' : `Rows ${skip + 1}–${skip + shown}`}
      </span>
      <button type="button" disabled={!hasMore} onClick={() => onChange({ skip: skip + limit, limit })}>
        Next page
      </button>
      <label className="inc-check">
        Rows per page{' '}
        <select aria-label="Rows per page" value={limit} onChange={(e) => onChange({ skip: 0, limit: Number(e.target.value) })}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}
