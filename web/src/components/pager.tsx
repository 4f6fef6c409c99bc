// Previous / next paging for a list (usePagedApi, pageOf, or pageQuery + splitPage), with a
// "Per page" choice where the page offers sizes. Without sizes and with one page only, it is
// not shown at all.
import { Field } from './field';

export const PAGE_SIZES = [25, 50, 100, 200] as const;

export function Pager({ label, page, hasNext, onPage, shown, size, onSize, busy }: {
  /** Names the navigation ("Users pages"), telling several pagers of one page apart. */
  label: string;
  page: number;
  hasNext: boolean;
  onPage: (page: number) => void;
  /** Rows on this page (with size): the status says which rows they are. */
  shown?: number;
  size?: number;
  /** Given: a "Per page" select of PAGE_SIZES. */
  onSize?: (size: number) => void;
  /** While a page loads, the buttons wait (a second click would skip a page). */
  busy?: boolean;
}) {
  if (page === 0 && !hasNext && !onSize) return null;
  const first = size !== undefined ? page * size + 1 : 0;
  const range = shown && size !== undefined ? ` · rows ${first}–${first + shown - 1}` : '';
  return (
    <nav className="row pager" aria-label={label}>
      <button type="button" disabled={page === 0 || busy} onClick={() => onPage(page - 1)}>Previous</button>
      <span className="muted" aria-live="polite">{`Page ${page + 1}${range}`}</span>
      <button type="button" disabled={!hasNext || busy} onClick={() => onPage(page + 1)}>Next</button>
      {onSize ? (
        <>
          <span className="spacer" />
          <Field label="Per page">
            <select value={size} onChange={(e) => onSize(Number(e.target.value))}>
              {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
            </select>
          </Field>
        </>
      ) : null}
    </nav>
  );
}
