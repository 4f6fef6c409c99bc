// Which entities a user may see, from their objectPermissions: the subtrees under `include`
// minus the subtrees under `exclude`. An object under several parents is inside a subtree
// when any of its paths passes through it. A link is visible when both its ends are.
import { type EntityGraph, MAX_PATHS, ROOT_ID } from './entity-graph.js';

export interface ObjectAccessList {
  include: ReadonlyArray<string | number>;
  exclude?: ReadonlyArray<string | number>;
}

/** What one user may see: everything, or a set of object ids. */
export interface Visibility {
  readonly all: boolean;
  /** Objects the user may see and change (root included only when their list includes it). */
  has(id: string): boolean;
  /** Like `has`, but the root is always readable: it is where every listing starts. */
  canRead(id: string): boolean;
  /** A link is visible when both of its ends are. */
  hasLink(source: string, target: string): boolean;
}

export const SEE_ALL: Visibility = {
  all: true,
  has: () => true,
  canRead: () => true,
  hasLink: () => true,
};

export function visibilityOf(graph: EntityGraph, list: ObjectAccessList | null | undefined): Visibility {
  if (!list) return SEE_ALL;
  const included = graph.descendants(list.include.map(String));
  for (const id of graph.descendants((list.exclude ?? []).map(String))) included.delete(id);
  if (included.size === graph.objectCount) return SEE_ALL;
  return {
    all: false,
    has: (id) => included.has(id),
    canRead: (id) => id === ROOT_ID || included.has(id),
    hasLink: (source, target) => included.has(source) && included.has(target),
  };
}

/**
 * Every root-to-object path the user may see (ids, root first). A path through a hidden object
 * is left out whole: showing it with the hidden part cut out would tell that the object has a
 * parent the user cannot see. Only above the top of the user's part of the tree (an object none
 * of whose parents they see, e.g. an included object) is the hidden part cut out, since every
 * path to it crosses that part. Same cap as `pathsTo`.
 */
export function visiblePaths(graph: EntityGraph, visibility: Visibility, id: string): string[][] {
  if (visibility.all) return graph.pathsTo(id);
  if (!graph.hasObject(id)) return [];
  const out: string[][] = [];
  const keys = new Set<string>();
  const push = (path: string[]) => {
    const key = path.join();
    if (keys.has(key)) return;
    keys.add(key);
    out.push(path);
  };
  const walk = (node: string, below: string[]): void => {
    if (out.length >= MAX_PATHS) return;
    const path = [node, ...below];
    const parents = graph.parentsOf(node);
    if (parents.length === 0) return push(path);
    const seen = parents.filter((p) => visibility.canRead(p));
    if (seen.length === 0) return push([ROOT_ID, ...path]);
    for (const p of seen) walk(p, path);
  };
  walk(id, []);
  return out;
}

/**
 * The first of the visible paths (as `visiblePaths`): through the first parent the user sees,
 * up to the root or the top of their part. Cost in proportion to the depth.
 */
export function firstVisiblePath(graph: EntityGraph, visibility: Visibility, id: string): string[] {
  if (visibility.all) return graph.firstPathTo(id);
  const out: string[] = [];
  const seen = new Set<string>();
  for (let node: string | undefined = id; node !== undefined && !seen.has(node); ) {
    seen.add(node);
    out.unshift(node);
    const parents = graph.parentsOf(node);
    if (parents.length === 0) break;
    node = parents.find((p) => visibility.canRead(p));
    if (node === undefined) out.unshift(ROOT_ID);
  }
  return out;
}

/**
 * `given` in place of the members of `current` the user sees; the members they do not see stay,
 * where they were. A user shown only part of a list (an object's parents) sends back that part:
 * sending it unchanged changes nothing, and no edit drops what they were never shown.
 */
export function replaceVisible(visibility: Visibility, current: readonly string[], given: readonly string[]): string[] {
  if (visibility.all) return [...given];
  const rest = [...given];
  const out: string[] = [];
  for (const id of current) {
    if (!visibility.canRead(id)) out.push(id);
    else if (rest.length > 0) out.push(rest.shift()!);
  }
  out.push(...rest);
  return out;
}
