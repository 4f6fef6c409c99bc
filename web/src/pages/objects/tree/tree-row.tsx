// One row of the tree: an object (expand button, name linking to its page, state badge) or a
// status row under a parent (children loading, failed, or more to load).
import { useEffect } from 'react';
import { Link } from 'wouter';
import { errorText } from '../../../components/error-banner';
import { MaintenanceBadge } from '../../../components/maintenance-badge';
import { StateBadge } from '../../../components/states';
import type { TreeRow as Row, TreeStore } from './use-tree-store';

export const ROW_HEIGHT = 34;
const INDENT = 18;

interface Props {
  row: Row;
  index: number;
  top: number;
  store: TreeStore;
  stateOf: (id: string, fallback: number | undefined) => number;
  active: boolean;
  selected: boolean;
  onPick: (index: number) => void;
}

export function TreeRow({ row, index, top, store, stateOf, active, selected, onPick }: Props) {
  const common = {
    role: 'treeitem',
    'aria-level': row.level,
    'aria-selected': row.kind === 'node' ? selected : undefined,
    tabIndex: active ? 0 : -1,
    'data-row': index,
    className: `obj-row${selected ? ' obj-row-selected' : ''}`,
    style: { top, height: ROW_HEIGHT, paddingLeft: 6 + (row.level - 1) * INDENT },
    onClick: () => onPick(index),
  } as const;

  if (row.kind !== 'node') {
    const parent = store.object(row.parentId)?.name ?? row.parentId;
    return (
      <div {...common} aria-label={row.kind === 'more' ? `More children of ${parent}` : undefined}>
        <span className="obj-toggle-space" />
        {row.kind === 'loading' ? <span className="muted">Loading…</span> : null}
        {row.kind === 'error' ? <StatusError parentId={row.parentId} store={store} /> : null}
        {row.kind === 'more' ? <MoreButton parentId={row.parentId} parent={parent} store={store} /> : null}
      </div>
    );
  }

  const o = store.object(row.id);
  const name = o?.name ?? row.id;
  const kids = store.kids(row.id);
  const leaf = kids !== undefined && kids.done && !kids.loading && kids.ids.length === 0;
  const expanded = store.isExpanded(row.key);
  return (
    <div
      {...common}
      aria-label={name}
      aria-expanded={leaf ? undefined : expanded}
      aria-posinset={row.pos}
      aria-setsize={row.size}
      data-id={row.id}
    >
      {leaf ? (
        <span className="obj-toggle-space" />
      ) : (
        // Out of the tab order: in the tree, Right and Left do this from the keyboard.
        <button type="button" tabIndex={-1} className="icon obj-toggle" aria-label={`Children of ${name}`} aria-expanded={expanded} onClick={() => store.toggle(row.key, row.id)}>
          {expanded ? '▾' : '▸'}
        </button>
      )}
      <Link href={`/objects/${row.id}`} tabIndex={-1} className="obj-name">
        {name}
      </Link>
      <StateBadge stateId={stateOf(row.id, o?.state_id)} />
      <MaintenanceBadge maintenance={o?.maintenance} />
    </div>
  );
}

function StatusError({ parentId, store }: { parentId: string; store: TreeStore }) {
  return (
    <>
      <span className="obj-row-error" role="alert">
        {errorText(store.kids(parentId)?.error)}
      </span>
      <button type="button" tabIndex={-1} onClick={() => store.loadMore(parentId)}>
        Retry
      </button>
    </>
  );
}

/** Rendered only when scrolled into view (the list is virtual), so showing it loads the next page. */
function MoreButton({ parentId, parent, store }: { parentId: string; parent: string; store: TreeStore }) {
  useEffect(() => store.loadMore(parentId), [parentId, store]);
  return (
    <button type="button" tabIndex={-1} className="link" onClick={() => store.loadMore(parentId)}>
      Load more children of {parent}
    </button>
  );
}
