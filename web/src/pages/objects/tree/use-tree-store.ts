// The data behind the tree: objects by id, the loaded children of each parent (paged from
// GET /objects/{id}/children), and which paths are expanded. An object with several parents
// appears under each of them, so expansion is keyed by path ("1/12/40") while children are
// keyed by parent id: the same parent shown twice shares one list. The data lives in a ref
// and a version counter re-renders, so 10,000 loaded objects are not copied on every page.
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { api, data } from '../../../api/client';
import { ROOT_ID, type ObjectRecord } from './types';

export const CHILD_PAGE = 500;
const FIELDS = 'name,state_id,parent_id,maintenance';

export interface Kids {
  ids: string[];
  done: boolean;
  loading: boolean;
  error?: unknown;
}

export type TreeRow =
  | { kind: 'node'; key: string; id: string; level: number; pos: number; size: number; parentKey?: string }
  | { kind: 'more' | 'loading' | 'error'; key: string; parentId: string; level: number; parentKey: string };

export interface TreeStore {
  rows: TreeRow[];
  object(id: string): ObjectRecord | undefined;
  kids(id: string): Kids | undefined;
  isExpanded(key: string): boolean;
  toggle(key: string, id: string): void;
  expand(key: string, id: string): void;
  loadMore(id: string): void;
  /** Loads again the children of `id` already shown (after a create or delete). */
  refresh(id: string): void;
  /** Drops a deleted object and refreshes every loaded parent that listed it. */
  forget(id: string): void;
}

async function fetchChildren(id: string, skip: number, limit: number): Promise<ObjectRecord[]> {
  return data(await api.GET('/node/api/objects/{id}/children', { params: { path: { id }, query: { skip, limit, fields: FIELDS } } }));
}

export function useTreeStore(): TreeStore {
  const objects = useRef(new Map<string, ObjectRecord>([[ROOT_ID, { id: ROOT_ID, name: 'Root', state_id: 1 }]]));
  const kids = useRef(new Map<string, Kids>());
  const expanded = useRef(new Set<string>([ROOT_ID]));
  const [version, bump] = useReducer((v: number) => v + 1, 0);

  // Refreshes asked for while a page of that parent was on its way: done when it lands.
  const stale = useRef(new Set<string>());

  const load = useCallback((id: string, mode: 'first' | 'more' | 'refresh') => {
    const current = kids.current.get(id);
    if (current?.loading) {
      if (mode === 'refresh') stale.current.add(id);
      return;
    }
    const have = current?.ids ?? [];
    const skip = mode === 'more' ? have.length : 0;
    const limit = mode === 'refresh' ? Math.min(10_000, Math.max(CHILD_PAGE, have.length)) : CHILD_PAGE;
    kids.current.set(id, { ids: have, done: current?.done ?? false, loading: true });
    bump();
    const settled = () => {
      if (stale.current.delete(id)) load(id, 'refresh');
    };
    fetchChildren(id, skip, limit).then(
      (list) => {
        for (const o of list) objects.current.set(o.id, o);
        const fresh = list.map((o) => o.id);
        // A page may overlap the previous one when objects were added meanwhile: keep ids unique.
        const ids = mode === 'more' ? [...new Set([...have, ...fresh])] : fresh;
        kids.current.set(id, { ids, done: list.length < limit, loading: false });
        bump();
        settled();
      },
      (error: unknown) => {
        kids.current.set(id, { ids: have, done: current?.done ?? false, loading: false, error });
        bump();
        settled();
      },
    );
  }, []);

  // The root's own record (its name and state) and its first children, once.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void api.GET('/node/api/objects/{id}', { params: { path: { id: ROOT_ID }, query: { fields: FIELDS } } }).then(
      (r) => {
        objects.current.set(ROOT_ID, data(r));
        bump();
      },
      () => undefined, // the children's answer shows the error
    );
    load(ROOT_ID, 'first');
  }, [load]);

  const rows = useMemo(() => flatten(objects.current, kids.current, expanded.current), [version]);

  return useMemo<TreeStore>(() => {
    const expand = (key: string, id: string) => {
      expanded.current.add(key);
      const k = kids.current.get(id);
      if (!k || (k.error && !k.loading)) load(id, 'first');
      bump();
    };
    return {
      rows,
      object: (id) => objects.current.get(id),
      kids: (id) => kids.current.get(id),
      isExpanded: (key) => expanded.current.has(key),
      expand,
      toggle(key, id) {
        if (!expanded.current.has(key)) return expand(key, id);
        expanded.current.delete(key);
        bump();
      },
      loadMore: (id) => load(id, 'more'),
      refresh: (id) => load(id, kids.current.has(id) ? 'refresh' : 'first'),
      forget(id) {
        objects.current.delete(id);
        kids.current.delete(id);
        for (const [parent, k] of kids.current) if (k.ids.includes(id)) load(parent, 'refresh');
        bump();
      },
    };
  }, [rows, load]);
}

/** The visible rows: expanded nodes depth first, with a status row where children are pending. */
function flatten(objects: Map<string, ObjectRecord>, kids: Map<string, Kids>, expanded: Set<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const ancestors = new Set<string>();
  const visit = (id: string, key: string, level: number, pos: number, size: number, parentKey?: string) => {
    rows.push({ kind: 'node', key, id, level, pos, size, parentKey });
    if (!expanded.has(key)) return;
    const k = kids.get(id);
    const status = (kind: 'more' | 'loading' | 'error') => rows.push({ kind, key: `${key}#${kind}`, parentId: id, level: level + 1, parentKey: key });
    if (!k || (k.loading && k.ids.length === 0)) return void status('loading');
    ancestors.add(id);
    k.ids.forEach((child, i) => {
      // The server keeps the graph acyclic; this guard only keeps a bad answer from looping.
      if (!ancestors.has(child) && objects.has(child)) visit(child, `${key}/${child}`, level + 1, i + 1, k.done ? k.ids.length : -1, key);
    });
    ancestors.delete(id);
    if (k.error) status('error');
    else if (k.loading) status('loading');
    else if (!k.done) status('more');
  };
  visit(ROOT_ID, ROOT_ID, 1, 1, 1);
  return rows;
}
