// A small virtual list: a scroll container as tall as all the rows, with only the rows in
// view (plus a few either side) rendered, each at its own offset. Rows have one fixed height,
// so where any row sits is a multiplication and 10,000 rows cost what 40 do.
import { forwardRef, useImperativeHandle, useLayoutEffect, useRef, useState, type HTMLAttributes, type ReactNode } from 'react';

export interface VirtualListHandle {
  /** Scrolls the least needed for row `index` to be in view. */
  scrollToIndex(index: number): void;
  element(): HTMLDivElement | null;
}

interface Props extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  count: number;
  rowHeight: number;
  renderRow: (index: number, style: { top: number; height: number }) => ReactNode;
  overscan?: number;
  /** A row kept rendered even when scrolled away (the focused one), so Tab can still reach it. */
  pinned?: number;
}

export const VirtualList = forwardRef<VirtualListHandle, Props>(function VirtualList({ count, rowHeight, renderRow, overscan = 6, pinned, onScroll, ...rest }, ref) {
  const outer = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);

  useLayoutEffect(() => {
    const el = outer.current;
    if (!el) return;
    setViewport(el.clientHeight);
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useImperativeHandle(ref, () => ({
    element: () => outer.current,
    scrollToIndex(index) {
      const el = outer.current;
      if (!el) return;
      const top = index * rowHeight;
      let next = el.scrollTop;
      if (top < next) next = top;
      else if (top + rowHeight > next + el.clientHeight) next = top + rowHeight - el.clientHeight;
      if (next !== el.scrollTop) {
        el.scrollTop = next;
        // Rendered at once, not on the scroll event, so a row moved to by keyboard can take focus.
        setScrollTop(el.scrollTop);
      }
    },
  }), [rowHeight]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  const rows: ReactNode[] = [];
  const render = (i: number) => rows.push(renderRow(i, { top: i * rowHeight, height: rowHeight }));
  if (pinned !== undefined && pinned >= 0 && pinned < first) render(pinned);
  for (let i = first; i < last; i++) render(i);
  if (pinned !== undefined && pinned >= last && pinned < count) render(pinned);

  return (
    <div
      {...rest}
      ref={outer}
      style={{ ...rest.style, overflowY: 'auto', position: 'relative' }}
      onScroll={(e) => {
        setScrollTop(e.currentTarget.scrollTop);
        onScroll?.(e);
      }}
    >
      <div role="presentation" style={{ height: count * rowHeight, position: 'relative' }}>
        {rows}
      </div>
    </div>
  );
});
