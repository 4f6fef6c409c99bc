// The tree of objects as an ARIA tree over the virtual list. One row holds the focus (roving
// tabindex); Up/Down/Home/End move it, Right expands or steps into the children, Left
// collapses or steps out to the parent, Enter opens the object's page. The focused object
// is the selection (what "New object", "Delete" and the map act on). A status row ("Load
// more", "Loading…") that held the focus hands it on when it is replaced, so the focus stays
// in the tree rather than falling to the page.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation } from 'wouter';
import type { Selection } from './types';
import { ROW_HEIGHT, TreeRow } from './tree-row';
import type { LiveStates } from './use-live-states';
import type { TreeRow as Row, TreeStore } from './use-tree-store';
import { VirtualList, type VirtualListHandle } from './virtual-list';

interface Props {
  store: TreeStore;
  live: LiveStates;
  selected: Selection | undefined;
  onSelect: (s: Selection) => void;
}

export function ObjectTree({ store, live, selected, onSelect }: Props) {
  const { rows } = store;
  const list = useRef<VirtualListHandle>(null);
  const [activeKey, setActiveKey] = useState<string>(rows[0]?.key ?? '1');
  // Set when the keyboard moved the focus: the row takes it once it is rendered.
  const wantFocus = useRef(false);
  const [, navigate] = useLocation();

  // The active row as last rendered: what to replace when its key is gone.
  const lastActive = useRef<{ row: Row; index: number }>(undefined);
  let active = rows.findIndex((r) => r.key === activeKey);
  let replaced = false;
  if (active < 0 && lastActive.current?.row.key === activeKey) {
    active = replacementOf(rows, lastActive.current.row, lastActive.current.index);
    replaced = active >= 0;
  }
  if (active < 0) active = Math.min(rows.length - 1, Math.max(0, rows.findIndex((r) => r.key === selected?.key)));

  // Declared before the focusing effect: a replacement asks for the focus in the same commit.
  useEffect(() => {
    const row = rows[active];
    if (!row) return;
    lastActive.current = { row, index: active };
    if (!replaced) return;
    setActiveKey(row.key);
    // The focus was on the row that went away (now on <body>) or still in the tree: it follows.
    const focused = document.activeElement;
    if (!focused || focused === document.body || list.current?.element()?.contains(focused)) wantFocus.current = true;
  });

  useEffect(() => {
    if (!wantFocus.current) return;
    const el = list.current?.element()?.querySelector<HTMLElement>(`[data-row="${active}"]`);
    if (el) {
      el.focus();
      wantFocus.current = false;
    }
  });

  const stateOf = (id: string, fallback: number | undefined) => live.get(id) ?? fallback ?? 0;

  const pick = (index: number, focus = false) => {
    const row = rows[index];
    if (!row) return;
    setActiveKey(row.key);
    if (row.kind === 'node') onSelect({ id: row.id, name: store.object(row.id)?.name ?? row.id, key: row.key });
    if (focus) {
      wantFocus.current = true;
      list.current?.scrollToIndex(index);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const row = rows[active];
    if (!row) return;
    const go = (i: number) => pick(Math.max(0, Math.min(rows.length - 1, i)), true);
    const expandable = row.kind === 'node' && !isLeaf(store, row.id);
    const open = row.kind === 'node' && store.isExpanded(row.key);
    switch (e.key) {
      case 'ArrowDown': go(active + 1); break;
      case 'ArrowUp': go(active - 1); break;
      case 'Home': go(0); break;
      case 'End': go(rows.length - 1); break;
      case 'PageDown': go(active + 10); break;
      case 'PageUp': go(active - 10); break;
      case 'ArrowRight':
        if (row.kind !== 'node' || !expandable) break;
        if (!open) store.expand(row.key, row.id);
        else if (rows[active + 1]?.parentKey === row.key) go(active + 1);
        break;
      case 'ArrowLeft':
        if (open) store.toggle(row.key, row.id);
        else if (row.parentKey) go(rows.findIndex((r) => r.key === row.parentKey));
        break;
      case 'Enter':
        if (row.kind === 'node') navigate(`/objects/${row.id}`);
        else if (row.kind !== 'loading') store.loadMore(row.parentId);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const rootKids = store.kids(rows[0]?.kind === 'node' ? rows[0].id : '');
  const empty = rows.length === 1 && rootKids?.done && rootKids.ids.length === 0;
  return (
    <>
      {empty ? <p className="muted">No objects yet: “New object” creates one under the root.</p> : null}
      <VirtualList
        ref={list}
        role="tree"
        aria-label="Objects"
        className="obj-tree"
        count={rows.length}
        rowHeight={ROW_HEIGHT}
        pinned={active}
        onKeyDown={onKeyDown}
        renderRow={(i, style) => {
          const row = rows[i]!;
          return (
            <TreeRow
              key={row.key}
              row={row}
              index={i}
              top={style.top}
              store={store}
              stateOf={stateOf}
              active={i === active}
              selected={row.kind === 'node' && row.key === selected?.key}
              onPick={pick}
            />
          );
        }}
      />
    </>
  );
}

function isLeaf(store: TreeStore, id: string): boolean {
  const k = store.kids(id);
  return k !== undefined && k.done && !k.loading && k.ids.length === 0;
}

/**
 * The row that takes over from a status row gone from `rows`: "Load more" becomes "Loading…"
 * (the same parent's status row); "Loading…" becomes the first child of the page it brought
 * (at its old index), as does a "Load more" whose page came before "Loading…" was drawn;
 * failing those, the parent's last loaded child.
 */
function replacementOf(rows: Row[], gone: Row, index: number): number {
  if (gone.kind === 'node') return -1;
  const sameParent = (r: Row | undefined) => r !== undefined && r.parentKey === gone.parentKey;
  const status = rows.findIndex((r) => r.kind !== 'node' && sameParent(r));
  const at = sameParent(rows[index]) ? index : -1;
  // "Load more" may go straight to the page it brought (the page came before "Loading…" was drawn).
  if (gone.kind !== 'error' && at >= 0 && rows[at]!.kind === 'node') return at;
  if (status >= 0) return status;
  if (at >= 0) return at;
  for (let i = rows.length - 1; i >= 0; i--) if (sameParent(rows[i])) return i;
  return -1;
}
