// Previous / next paging for lists the API pages with limit/skip. There is no total, so "Next"
// is offered while the last page came back full.
export function Pager({ skip, limit, count, onSkip, label }: { skip: number; limit: number; count: number; onSkip: (skip: number) => void; label: string }) {
  if (skip === 0 && count < limit) return null;
  return (
    <div className="row obj-pager" role="group" aria-label={`${label} pages`}>
      <button type="button" disabled={skip === 0} onClick={() => onSkip(Math.max(0, skip - limit))}>
        Previous
      </button>
      <span className="muted">
        {count === 0 ? 'none' : `${skip + 1}–${skip + count}`}
      </span>
      <button type="button" disabled={count < limit} onClick={() => onSkip(skip + limit)}>
        Next
      </button>
    </div>
  );
}
